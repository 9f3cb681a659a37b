package dev.agentmiddleware.results;

import dev.agentmiddleware.results.ToolResultGuard.ResultContent;

import dev.agentmiddleware.results.ResultPolicy.OnExceed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import dev.agentmiddleware.tool.ToolDeniedException;

/**
 * Guards what tools return before a model or an MCP client sees it: secrets are redacted,
 * personal data is masked (for the tools whose policy asks for it), then your own
 * {@link ToolResultGuard}s run in order, then a result longer than its tool's limit is
 * cut with a marker saying how much was left out, or refused ({@link ResultPolicy}).
 *
 * <p>
 * <b>Where:</b> inside the chain, just inside observation and logging
 * ({@link BuiltInOrder#RESULTS}), so that every caller gets the guarded result (an MCP
 * client, a Spring AI {@code ChatClient}, Java code calling a tool bean), logs and
 * records show it, and observers see a refusal as the outcome {@code denied} decided by
 * the guard. The guards work on the form the caller will read: the text of a tool that
 * returns a string, the JSON tree of any other result, and each text of a
 * {@link ToolContents rich result} (its texts and embedded text resources; a resource
 * link's URI, title and description are redacted and masked, not shown to the guards),
 * whose texts together are held to the limit in characters and whose binary parts
 * (images, audio, embedded blobs) together to {@link ResultPolicy#maxBinaryBytes()}: a
 * binary part over it is left out, replaced by a text part saying what it was, or
 * refused. A changed tree is turned back into the tool's result type, so the chain's
 * result contract holds and MCP's {@code structuredContent} stays valid JSON; a tree that
 * no longer fits the type (a secret-named number redacted to text) is refused rather than
 * handed on unredacted. A text result that is itself a JSON object or array is cut like a
 * tree, so it stays valid JSON. A result the mapper cannot write as JSON (which no model
 * can read either) is handed to a Java caller as it is.
 *
 * <p>
 * <b>Redaction</b> uses the {@link SecretRedactor}: credentials in URLs,
 * {@code Authorization} values, PEM private keys and {@code key=value} secrets in text
 * and in every string of a tree, and the whole value of every secret-named field of a
 * tree. <b>Personal data</b> of the kinds the tool's {@link ResultPolicy#personalData()}
 * names is masked by the {@link PersonalDataDetector}s of those kinds, in text and in
 * every string value of a tree ({@code [EMAIL]}, {@code [PHONE]},
 * {@code [CARD ending 1111]}, {@code [IBAN]}); {@link #personalDataMasking} hands the
 * same masking to the logs. <b>Cutting</b> a tree cuts its longest strings, never its
 * structure; a result whose structure alone is over the limit is refused.
 *
 * <p>
 * Counted per tool as {@link MiddlewareEvent#RESULT_REDACTED},
 * {@link MiddlewareEvent#RESULT_TRUNCATED} and {@link MiddlewareEvent#RESULT_REFUSED},
 * and per tool and kind as {@link MiddlewareEvent#PERSONAL_DATA_MASKED} (once per value
 * masked). <pre>{@code
 * ResultGuardMiddleware results = ResultGuardMiddleware.builder()
 *     .policies((tool) -> new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of("email", "card")))
 *     .personalDataDetectors(List.of(new EmailDetector(), new PaymentCardDetector()))
 *     .guards(List.of(noCardNumbers))
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(readFileTool, results);
 * }</pre>
 */
public final class ResultGuardMiddleware extends BuiltInMiddleware<ResultPolicy> {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "results";

	private final List<ToolResultGuard> guards;

	private final Map<String, PersonalDataDetector> detectors;

	private final JsonMapper jsonMapper;

	private ResultGuardMiddleware(Builder builder) {
		super(NAME, builder);
		this.guards = List.copyOf(builder.guards);
		this.detectors = Map.copyOf(builder.detectors);
		this.jsonMapper = builder.jsonMapper;
	}

	/**
	 * Starts a middleware that, unless told otherwise, applies no policy to any tool,
	 * with order {@link BuiltInOrder#RESULTS}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, ResultPolicy policy, ToolHandler next) {
		PersonalDataMasking masking = policy.masksPersonalData() ? masking(policy) : null;
		return (invocation) -> guard(invocation, policy, masking, next.handle(invocation));
	}

	/**
	 * The masking of personal data this middleware applies to a tool's results, for the
	 * other places that show what the tool was given or returned, such as the logs (the
	 * logging middleware's {@code masking}). Counts nothing. <pre>{@code
	 * LoggingMiddleware logging = LoggingMiddleware.builder().masking(results::personalDataMasking).build();
	 * }</pre>
	 * @param tool the tool
	 * @return masks the personal data in a text, or {@code null} when this middleware
	 * masks none in the tool's results
	 * @throws InvalidPolicyException when the tool's policy names a kind no detector of
	 * this middleware finds
	 */
	public @Nullable UnaryOperator<String> personalDataMasking(ToolDescriptor tool) {
		ResultPolicy policy = policyOf(tool);
		if (policy == null || !policy.masksPersonalData()) {
			return null;
		}
		PersonalDataMasking masking = masking(policy);
		return (text) -> masking.mask(text, (kind) -> {
		});
	}

	/**
	 * The detectors of personal data, by kind.
	 * @return the detectors
	 */
	public Map<String, PersonalDataDetector> personalDataDetectors() {
		return this.detectors;
	}

	/**
	 * The users' guards, in the order they run.
	 * @return the guards
	 */
	public List<ToolResultGuard> guards() {
		return this.guards;
	}

	private PersonalDataMasking masking(ResultPolicy policy) {
		List<PersonalDataDetector> selected = new ArrayList<>(policy.personalData().size());
		for (String kind : policy.personalData()) {
			PersonalDataDetector detector = this.detectors.get(kind);
			if (detector == null) {
				throw new InvalidPolicyException("personalData",
						"personalData names '" + kind + "', which no detector finds; the detectors find "
								+ this.detectors.keySet().stream().sorted().toList());
			}
			selected.add(detector);
		}
		return new PersonalDataMasking(selected);
	}

	private @Nullable Object guard(ToolInvocation invocation, ResultPolicy policy,
			@Nullable PersonalDataMasking masking, @Nullable Object result) {
		if (result == null) {
			return null;
		}
		ToolDescriptor tool = invocation.tool();
		if (result instanceof ToolContents contents) {
			return guardContents(invocation, policy, masking, contents);
		}
		boolean text = result instanceof CharSequence && tool.acceptsResult(result.toString());
		ResultContent original = text ? ResultContent.ofText(result.toString()) : structured(result);
		if (original == null) {
			return result;
		}
		try {
			ResultContent content = original;
			if (policy.redactSecrets()) {
				ResultContent redacted = ResultRedaction.redact(redactor(), content);
				if (!redacted.equals(content)) {
					metrics().count(MiddlewareEvent.RESULT_REDACTED, tool.name());
				}
				content = redacted;
			}
			if (masking != null) {
				content = masking.mask(content,
						(kind) -> metrics().count(MiddlewareEvent.PERSONAL_DATA_MASKED, tool.name(), kind));
			}
			for (ToolResultGuard guard : this.guards) {
				content = Objects.requireNonNull(guard.check(invocation, content),
						() -> "ToolResultGuard " + guard.name() + " returned null; return the result to pass it");
			}
			if (policy.limited()) {
				content = limit(tool, policy, content);
			}
			return content.equals(original) ? result : backToResult(tool, content);
		}
		catch (ToolResultRefusedException ex) {
			metrics().count(MiddlewareEvent.RESULT_REFUSED, tool.name());
			throw ex;
		}
	}

	// A rich result: its texts are screened as text results are, one by one, and held to
	// the limit together; its
	// binary parts are held to the limit in bytes (see ContentsGuard)
	private ToolContents guardContents(ToolInvocation invocation, ResultPolicy policy,
			@Nullable PersonalDataMasking masking, ToolContents contents) {
		String toolName = invocation.toolName();
		boolean[] redacted = new boolean[1];
		UnaryOperator<String> linkTexts = (text) -> {
			String screened = text;
			if (policy.redactSecrets()) {
				screened = redactor().redactText(text);
				redacted[0] |= !screened.equals(text);
			}
			return (masking != null) ? masking.mask(screened,
					(kind) -> metrics().count(MiddlewareEvent.PERSONAL_DATA_MASKED, toolName, kind)) : screened;
		};
		UnaryOperator<String> texts = (text) -> {
			ResultContent content = ResultContent.ofText(linkTexts.apply(text));
			for (ToolResultGuard guard : this.guards) {
				content = Objects.requireNonNull(guard.check(invocation, content),
						() -> "ToolResultGuard " + guard.name() + " returned null; return the result to pass it");
			}
			return content.isText() ? content.text() : this.jsonMapper.writeValueAsString(content.json());
		};
		try {
			ContentsGuard guard = new ContentsGuard(texts, linkTexts, policy,
					new ResultLimit(policy.maxChars(), this.jsonMapper), toolName);
			ToolContents guarded = guard.guard(contents);
			if (redacted[0]) {
				metrics().count(MiddlewareEvent.RESULT_REDACTED, toolName);
			}
			if (guard.cut()) {
				metrics().count(MiddlewareEvent.RESULT_TRUNCATED, toolName);
			}
			return guarded;
		}
		catch (ToolResultRefusedException ex) {
			metrics().count(MiddlewareEvent.RESULT_REFUSED, toolName);
			throw ex;
		}
	}

	private ResultContent limit(ToolDescriptor tool, ResultPolicy policy, ResultContent content) {
		ResultLimit limit = new ResultLimit(policy.maxChars(), this.jsonMapper);
		if (!limit.exceededBy(content)) {
			return content;
		}
		if (policy.onExceed() == OnExceed.REFUSE) {
			throw new ToolResultRefusedException(tool.name(), NAME, limit.refusal(content));
		}
		ResultContent cut = limit.cut(content);
		if (cut == null) {
			throw new ToolResultRefusedException(tool.name(), NAME,
					limit.refusal(content) + "; even with every text in it cut, its structure is longer than that");
		}
		metrics().count(MiddlewareEvent.RESULT_TRUNCATED, tool.name());
		return cut;
	}

	private @Nullable ResultContent structured(Object result) {
		JsonNode tree;
		try {
			tree = this.jsonMapper.valueToTree(result);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			// Not writable as JSON: no model or MCP client can read it either (their
			// conversion fails the same way);
			// a Java caller gets it as it is.
			return null;
		}
		// Numbers and booleans hold no secret and are short
		return (tree.isContainer() || tree.isString()) ? ResultContent.ofJson(tree) : null;
	}

	private Object backToResult(ToolDescriptor tool, ResultContent content) {
		if (content.isText()) {
			if (!tool.acceptsResult(content.text())) {
				throw new ToolResultRefusedException(tool.name(), NAME, "a guard replaced its structured result with"
						+ " text, which is not a " + tool.resultType().getSimpleName());
			}
			return content.text();
		}
		try {
			Object converted = this.jsonMapper.treeToValue(content.json(), tool.resultType());
			if (converted != null && tool.acceptsResult(converted)) {
				return converted;
			}
		}
		catch (JacksonException | IllegalArgumentException ex) {
			// refused below
		}
		throw new ToolResultRefusedException(tool.name(), NAME,
				"the guarded result (secrets redacted, personal data" + " masked or cut)" + " no longer fits its type "
						+ tool.resultType().getSimpleName() + ", so it is not handed on unguarded");
	}

	/**
	 * Builds a {@link ResultGuardMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<ResultPolicy, Builder> {

		private final List<ToolResultGuard> guards = new ArrayList<>();

		private final Map<String, PersonalDataDetector> detectors = new LinkedHashMap<>();

		private JsonMapper jsonMapper = JsonMapper.shared();

		private Builder() {
			super((tool) -> null, BuiltInOrder.RESULTS);
		}

		/**
		 * Adds guards, run in this order after redaction and before the size limit.
		 * @param guards the guards
		 * @return this builder
		 */
		public Builder guards(List<? extends ToolResultGuard> guards) {
			for (ToolResultGuard guard : guards) {
				this.guards.add(Objects.requireNonNull(guard, "guard"));
			}
			return this;
		}

		/**
		 * Adds detectors of personal data, which mask the kinds a tool's
		 * {@link ResultPolicy#personalData()} names (none by default:
		 * {@link EmailDetector}, {@link PhoneNumberDetector}, {@link PaymentCardDetector}
		 * and {@link IbanDetector} are the built-ins).
		 * @param detectors the detectors, each of a kind no other detector has
		 * @return this builder
		 * @throws IllegalArgumentException when two detectors have the same kind
		 */
		public Builder personalDataDetectors(List<? extends PersonalDataDetector> detectors) {
			for (PersonalDataDetector detector : detectors) {
				String kind = Objects.requireNonNull(detector, "detector").kind();
				PersonalDataDetector other = this.detectors.putIfAbsent(Objects.requireNonNull(kind, "kind"), detector);
				if (other != null) {
					throw new IllegalArgumentException(
							"Two personal data detectors find '" + kind + "': " + other.getClass().getName() + " and "
									+ detector.getClass().getName() + "; each kind needs its own detector");
				}
			}
			return this;
		}

		/**
		 * Sets the mapper that writes results as the JSON the caller reads (default
		 * {@link JsonMapper#shared()}); use the one the MCP server and Spring AI write
		 * results with.
		 * @param jsonMapper the mapper
		 * @return this builder
		 */
		public Builder jsonMapper(JsonMapper jsonMapper) {
			this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper");
			return this;
		}

		@Override
		public ResultGuardMiddleware build() {
			return new ResultGuardMiddleware(this);
		}

	}

	/**
	 * A result guard refused a tool's result: the tool ran, but what it returned is not
	 * handed to the caller. Observed and counted as {@code denied}, decided by the guard;
	 * never retried. <pre>{@code
	 * throw new ToolResultRefusedException("read_file", "pii", "the result holds a credit card number");
	 * }</pre>
	 */
	public static class ToolResultRefusedException extends ToolDeniedException {

		/**
		 * Creates the exception.
		 * @param toolName the tool whose result was refused
		 * @param decidedBy the guard that refused it, such as {@code results} for the
		 * size limit
		 * @param reason why, in words a person and a model can act on
		 */
		public ToolResultRefusedException(String toolName, String decidedBy, String reason) {
			super(toolName, decidedBy, reason,
					"The result of tool '" + toolName + "' was refused by " + decidedBy + ": " + reason);
		}

	}

}
