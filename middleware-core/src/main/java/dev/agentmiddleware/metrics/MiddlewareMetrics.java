package dev.agentmiddleware.metrics;

/**
 * Counts {@link MiddlewareEvent}s per tool. The built-ins take one; {@link #NONE} counts nothing. Implementations
 * must be thread-safe and cheap: they are called on the hot path of tool calls.
 * <pre>{@code
 * metrics.count(MiddlewareEvent.CACHE_HIT, invocation.toolName());
 * }</pre>
 */
@FunctionalInterface
public interface MiddlewareMetrics {

	/** Counts nothing. */
	MiddlewareMetrics NONE = (event, toolName) -> {
	};

	/**
	 * Counts one event.
	 * @param event what happened
	 * @param toolName the tool it happened to
	 */
	void count(MiddlewareEvent event, String toolName);

}
