package dev.agentmiddleware.results;

import java.util.Objects;

import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A check of what a tool returned, before a model or an MCP client sees it: your own
 * rules (PII, policy) next to the built-in redaction of secrets and the size limit. A
 * guard passes the result (returns it as it is), replaces it
 * ({@link ResultContent#withText(String)},
 * {@link ResultContent#withJson(tools.jackson.databind.JsonNode)}) or refuses it (throws
 * a {@link ToolResultRefusedException}, which the caller gets as a failed call and
 * observers see as {@code denied}, decided by the guard's {@link #name()}).
 *
 * <p>
 * Guards run in the {@link ResultGuardMiddleware}, inside the chain, on every call whose
 * tool the middleware applies to: after secrets are redacted and before the size limit,
 * in the order they are given (as Spring beans: by {@code @Order}). They must be
 * thread-safe and should be fast: they run on every result. A
 * {@link dev.agentmiddleware.tool.ToolContents rich result} is checked text by text: each
 * of its texts (text parts, embedded text resources) is given to the guard as a text
 * result of its own; its binary parts are not given. <pre>{@code
 * &#64;Bean
 * ToolResultGuard noCardNumbers() {
 *     Pattern card = Pattern.compile("\\b\\d{4}([ -]?)\\d{4}\\1\\d{4}\\1\\d{4}\\b");
 *     return (invocation, result) -> {
 *         if (result.isText() && card.matcher(result.text()).find()) {
 *             throw new ToolResultRefusedException(invocation.toolName(), "no-card-numbers",
 *                     "the result holds a card number");
 *         }
 *         return result;
 *     };
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ToolResultGuard {

	/**
	 * Checks one result.
	 * @param invocation the call that produced it
	 * @param result the result as the caller will read it (already redacted when
	 * redaction applies)
	 * @return the result, or a replacement of it
	 * @throws ToolResultRefusedException to refuse the result
	 */
	ResultContent check(ToolInvocation invocation, ResultContent result);

	/**
	 * The guard's name in refusals and logs.
	 * @return the name; the class's simple name by default
	 */
	default String name() {
		return getClass().getSimpleName();
	}

	/**
	 * A tool's result in the form a model or an MCP client reads: its text (a tool that
	 * returns a string), or its JSON tree (any other result, as it will be written to
	 * JSON). Immutable: a guard that changes the result returns a new content with
	 * {@link #withText(String)} or {@link #withJson(JsonNode)}. <pre>{@code
	 * ResultContent content = ResultContent.ofText("card 4111 1111 1111 1111");
	 * content.withText(content.text().replaceAll("\\d{4} \\d{4} \\d{4} (\\d{4})", "**** **** **** $1"));
	 * }</pre>
	 */
	public static final class ResultContent {

		private final @Nullable String text;

		private final @Nullable JsonNode json;

		private ResultContent(@Nullable String text, @Nullable JsonNode json) {
			this.text = text;
			this.json = json;
		}

		/**
		 * The content of a text result.
		 * @param text the text
		 * @return the content
		 */
		public static ResultContent ofText(String text) {
			return new ResultContent(Objects.requireNonNull(text, "text"), null);
		}

		/**
		 * The content of a structured result. The tree is not copied: a guard that
		 * changes it returns {@link #withJson(JsonNode)} with a changed copy
		 * ({@code json.deepCopy()}), never changes it in place.
		 * @param json the JSON tree
		 * @return the content
		 */
		public static ResultContent ofJson(JsonNode json) {
			return new ResultContent(null, Objects.requireNonNull(json, "json"));
		}

		/**
		 * Whether this is the content of a text result.
		 * @return {@code true} for text, {@code false} for a JSON tree
		 */
		public boolean isText() {
			return this.text != null;
		}

		/**
		 * The text of a text result.
		 * @return the text
		 * @throws IllegalStateException for a structured result
		 */
		public String text() {
			if (this.text == null) {
				throw new IllegalStateException("A structured result has no text; use json()");
			}
			return this.text;
		}

		/**
		 * The JSON tree of a structured result.
		 * @return the tree; do not change it
		 * @throws IllegalStateException for a text result
		 */
		public JsonNode json() {
			if (this.json == null) {
				throw new IllegalStateException("A text result has no JSON tree; use text()");
			}
			return this.json;
		}

		/**
		 * A text result replacing this content.
		 * @param replacement the new text
		 * @return the new content
		 */
		public ResultContent withText(String replacement) {
			return ofText(replacement);
		}

		/**
		 * A structured result replacing this content.
		 * @param replacement the new tree
		 * @return the new content
		 */
		public ResultContent withJson(JsonNode replacement) {
			return ofJson(replacement);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof ResultContent that && Objects.equals(this.text, that.text)
					&& Objects.equals(this.json, that.json);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.text, this.json);
		}

		@Override
		public String toString() {
			return isText() ? "ResultContent[text, " + text().length() + " chars]" : "ResultContent[json]";
		}

	}

}
