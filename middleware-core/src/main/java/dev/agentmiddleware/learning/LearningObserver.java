package dev.agentmiddleware.learning;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Learns from tool calls: called once after every call with the session, the tool, its arguments and how the call
 * ended.
 *
 * <p>A learning observer is not a layer of the chain. It is fed from the observer tier through
 * {@link LearningObserverAdapter}, by default asynchronously on the observer thread, so it never delays a call, and
 * an exception it throws never fails one. It sees every call, including calls a middleware denied, rate limited or
 * answered from a cache (then with the middleware's exception as {@code error}, or the cached value as
 * {@code result}). Implementations must be thread-safe when they are also read from other threads.
 * <pre>{@code
 * LearningObserver slowCities = (sessionKey, toolName, params, result, error) -> {
 *     if (error instanceof ToolTimeoutException) {
 *         slowCities.add(toolName + ":" + params.get("city"));
 *     }
 * };
 * ToolCallObservers observers = ToolCallObservers.builder()
 *     .observer(LearningObserverAdapter.of(slowCities))
 *     .build();
 * }</pre>
 *
 * <p>{@code params} are the real argument values: an observer that stores or shows them is responsible for not
 * leaking secrets (see {@link dev.agentmiddleware.redaction.SecretRedactor}).
 */
@FunctionalInterface
public interface LearningObserver {

	/**
	 * Called once after a call of a tool.
	 * @param sessionKey the session (conversation, thread or MCP session) of the call, or {@code null} when the caller
	 * has none
	 * @param toolName the tool's name
	 * @param params the bound arguments by parameter name; unmodifiable
	 * @param result the value the call returned, {@code null} on failure or for {@code void} tools
	 * @param error the failure, {@code null} when the call succeeded
	 */
	void onToolResult(@Nullable String sessionKey, String toolName, Map<String, @Nullable Object> params,
			@Nullable Object result, @Nullable Throwable error);

}
