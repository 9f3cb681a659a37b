package dev.agentmiddleware.tool;

import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

/**
 * A rich tool result: a list of {@linkplain ToolContent parts} (texts, images, audio,
 * resource links, embedded resources), in order. An {@code @AgentTool} method returns it
 * to answer with more than one text or JSON value: <pre>{@code
 * &#64;AgentTool(description = "Charts the sales of a month", safety = SafetyLevel.SAFE, readOnly = true)
 * public ToolContents salesChart(String month) {
 *     byte[] png = charts.render(month);
 *     return ToolContents.of(
 *             ToolContent.text("Sales in " + month + ", by region"),
 *             ToolContent.image(png, "image/png").annotated(Annotations.forAudience(Audience.USER)),
 *             ToolContent.resourceLink("file:///reports/" + month + ".csv", month + ".csv").withMimeType("text/csv"));
 * }
 * }</pre>
 *
 * <p>
 * Protocol-neutral. <b>On MCP</b> each part becomes its content block of a
 * {@code tools/call} result, with its annotations. <b>For a model</b> on the Spring AI
 * {@code ChatClient} path, and for Java code that wants text, {@link #text()} gives the
 * parts as text: each text as it is, each binary part described by its type and size
 * ({@code [image/png, 12,345 bytes]}), never its data. <b>Java callers</b> of the tool
 * bean get this object.
 *
 * <p>
 * <b>Contract.</b> Immutable and a value: the parts are copied into an unmodifiable list,
 * and each part is immutable itself, so the cache hands the same result to every hit and
 * two results with equal parts are equal. The built-ins handle it part by part: the
 * result guards redact, mask and cut its texts and cap its binary data by bytes; logs
 * show its texts (redacted, cut) and only the type and size of binary data; observers and
 * learning observers get this object as the call's result. {@link #toString()} never
 * shows binary data.
 */
public final class ToolContents {

	private final List<ToolContent> parts;

	private ToolContents(List<ToolContent> parts) {
		this.parts = parts;
	}

	/**
	 * A result of the given parts.
	 * @param parts the parts, in order
	 * @return the result
	 */
	public static ToolContents of(ToolContent... parts) {
		return new ToolContents(List.of(parts));
	}

	/**
	 * A result of the given parts.
	 * @param parts the parts, in order
	 * @return the result
	 */
	public static ToolContents of(List<? extends ToolContent> parts) {
		return new ToolContents(List.copyOf(parts));
	}

	/**
	 * The parts.
	 * @return the parts, in order; unmodifiable
	 */
	public List<ToolContent> parts() {
		return this.parts;
	}

	/**
	 * The result as a model or a person reads it in text: each part
	 * {@linkplain ToolContent#describe() described}, one after the other on lines of
	 * their own. Binary data appears only as its type and size.
	 * @return the text; empty for a result without parts
	 */
	public String text() {
		if (this.parts.size() == 1) {
			return this.parts.get(0).describe();
		}
		StringJoiner text = new StringJoiner("\n");
		for (ToolContent part : this.parts) {
			text.add(part.describe());
		}
		return text.toString();
	}

	/**
	 * How many bytes of binary data the parts hold together.
	 * @return the sum of the parts' {@linkplain ToolContent#binarySize() binary sizes}
	 */
	public long binarySize() {
		long size = 0;
		for (ToolContent part : this.parts) {
			size += part.binarySize();
		}
		return size;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof ToolContents that && this.parts.equals(that.parts);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.parts);
	}

	@Override
	public String toString() {
		return "ToolContents" + this.parts;
	}

}
