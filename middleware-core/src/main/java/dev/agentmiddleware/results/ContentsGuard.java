package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContent.EmbeddedResource;
import dev.agentmiddleware.tool.ToolContent.ResourceLink;
import dev.agentmiddleware.tool.ToolContent.Text;
import dev.agentmiddleware.tool.ToolContents;
import org.jspecify.annotations.Nullable;

/**
 * The result guards of one call whose result is a {@link ToolContents}, part by part:
 * each text (a text part, an embedded text resource) is screened as a text result is
 * (secrets, personal data, the user's guards); the texts of a resource link (URI, title,
 * description) have their secrets redacted and personal data masked; then the texts
 * together are held to the tool's limit in characters, cut in order (the first texts are
 * kept whole, a later one is cut and the rest keep only the marker), and the binary parts
 * together to its limit in bytes: a binary part cannot be cut, so one that would go over
 * the limit is left out, replaced by a text part saying what it was (with its
 * annotations), or the result is refused. Not thread-safe: one per call.
 */
final class ContentsGuard {

	private final UnaryOperator<String> texts;

	private final UnaryOperator<String> linkTexts;

	private final ResultPolicy policy;

	private final ResultLimit limit;

	private final String toolName;

	private boolean cut;

	/**
	 * Creates the guard of one call.
	 * @param texts screens a text of the result, as a text result is screened
	 * @param linkTexts redacts and masks a text of a resource link
	 * @param policy the tool's policy
	 * @param limit the tool's limit in characters
	 * @param toolName the tool's name, for refusals
	 */
	ContentsGuard(UnaryOperator<String> texts, UnaryOperator<String> linkTexts, ResultPolicy policy, ResultLimit limit,
			String toolName) {
		this.texts = texts;
		this.linkTexts = linkTexts;
		this.policy = policy;
		this.limit = limit;
		this.toolName = toolName;
	}

	/**
	 * The guarded result.
	 * @param contents the tool's result
	 * @return the guarded result, equal to {@code contents} when nothing changed
	 * @throws ToolResultRefusedException when a guard refuses it, or it is over a limit
	 * that refuses
	 */
	ToolContents guard(ToolContents contents) {
		List<ToolContent> parts = new ArrayList<>(contents.parts().size());
		for (ToolContent part : contents.parts()) {
			parts.add(screen(part));
		}
		if (this.policy.limited()) {
			limitTexts(parts);
		}
		if (this.policy.binaryLimited()) {
			limitBinary(parts);
		}
		ToolContents guarded = ToolContents.of(parts);
		return guarded.equals(contents) ? contents : guarded;
	}

	/**
	 * Whether a text was cut or a binary part left out.
	 * @return {@code true} if so
	 */
	boolean cut() {
		return this.cut;
	}

	private ToolContent screen(ToolContent part) {
		if (part instanceof Text text) {
			return text.withText(this.texts.apply(text.text()));
		}
		if (part instanceof EmbeddedResource resource && resource.text() != null) {
			return resource.withText(this.texts.apply(resource.text()));
		}
		if (part instanceof ResourceLink link) {
			return new ResourceLink(this.linkTexts.apply(link.uri()), link.name(), screened(link.title()),
					screened(link.description()), link.mimeType(), link.size(), link.annotations());
		}
		return part;
	}

	private @Nullable String screened(@Nullable String text) {
		return (text != null) ? this.linkTexts.apply(text) : null;
	}

	private void limitTexts(List<ToolContent> parts) {
		long total = 0;
		for (ToolContent part : parts) {
			String text = textOf(part);
			total += (text != null) ? text.length() : 0;
		}
		if (total <= this.policy.maxChars()) {
			return;
		}
		if (this.policy.onExceed() == OnExceed.REFUSE) {
			throw new ToolResultRefusedException(this.toolName, ResultGuardMiddleware.NAME, String.format(Locale.ROOT,
					"its texts have %,d characters, more than its limit of %,d", total, this.policy.maxChars()));
		}
		long room = this.policy.maxChars();
		for (int i = 0; i < parts.size(); i++) {
			ToolContent part = parts.get(i);
			String text = textOf(part);
			if (text == null) {
				continue;
			}
			if (text.length() <= room) {
				room -= text.length();
				continue;
			}
			String cutText = this.limit.cutText(text, (int) Math.max(0, room));
			room = 0;
			parts.set(i, (part instanceof Text textPart) ? textPart.withText(cutText)
					: ((EmbeddedResource) part).withText(cutText));
			this.cut = true;
		}
	}

	private static @Nullable String textOf(ToolContent part) {
		if (part instanceof Text text) {
			return text.text();
		}
		return (part instanceof EmbeddedResource resource) ? resource.text() : null;
	}

	private void limitBinary(List<ToolContent> parts) {
		long total = 0;
		for (int i = 0; i < parts.size(); i++) {
			ToolContent part = parts.get(i);
			int size = part.binarySize();
			if (size == 0) {
				continue;
			}
			if (total + size <= this.policy.maxBinaryBytes()) {
				total += size;
				continue;
			}
			if (this.policy.onExceed() == OnExceed.REFUSE) {
				throw new ToolResultRefusedException(this.toolName, ResultGuardMiddleware.NAME,
						String.format(Locale.ROOT, "its binary data has %,d bytes or more, more than its limit of %,d",
								total + size, this.policy.maxBinaryBytes()));
			}
			parts.set(i,
					new Text(part.describe() + String.format(Locale.ROOT,
							" [left out: the tool's binary data is over its limit of %,d bytes]",
							this.policy.maxBinaryBytes()), part.annotations()));
			this.cut = true;
		}
	}

}
