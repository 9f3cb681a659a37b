package dev.agentmiddleware.results;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * A check of what a tool returned, before a model or an MCP client sees it: your own rules (PII, policy) next to
 * the built-in redaction of secrets and the size limit. A guard passes the result (returns it as it is), replaces
 * it ({@link ResultContent#withText(String)}, {@link ResultContent#withJson(tools.jackson.databind.JsonNode)}) or refuses it (throws a
 * {@link ToolResultRefusedException}, which the caller gets as a failed call and observers see as {@code denied},
 * decided by the guard's {@link #name()}).
 *
 * <p>Guards run in the {@link ResultGuardMiddleware}, inside the chain, on every call whose tool the middleware
 * applies to: after secrets are redacted and before the size limit, in the order they are given (as Spring beans:
 * by {@code @Order}). They must be thread-safe and should be fast: they run on every result.
 * <pre>{@code
 * @Bean
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
	 * @param result the result as the caller will read it (already redacted when redaction applies)
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

}
