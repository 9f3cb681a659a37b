package dev.agentmiddleware.callrecord;

/**
 * Receives one {@link ToolCallRecord} after every call of every tool it watches, including calls a middleware
 * denied, rate limited or answered from a cache.
 *
 * <p>Observers are not layers of the chain: they cannot change a call, and a throwing or slow observer never
 * fails or delays one. By default records are delivered asynchronously, from a bounded queue on a background
 * thread (records that do not fit are dropped and counted). An observer that must see each record before the
 * call returns overrides {@link #synchronous()}; it still cannot fail the call.
 * <pre>{@code
 * ToolCallObserver failures = record -> {
 *     if (record.outcome() == CallOutcome.FAILED) {
 *         alerts.notify(record.invocation().toolName(), record.error());
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ToolCallObserver {

	/**
	 * Called once per call.
	 * @param record what happened
	 */
	void onToolCall(ToolCallRecord record);

	/**
	 * Whether records are delivered on the caller's thread, before the call returns. Default {@code false}.
	 * @return {@code true} for synchronous delivery
	 */
	default boolean synchronous() {
		return false;
	}

}
