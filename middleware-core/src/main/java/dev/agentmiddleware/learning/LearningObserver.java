package dev.agentmiddleware.learning;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Learns from tool calls: called once after every call with the session, the tool, its
 * arguments and how the call ended.
 *
 * <p>
 * A learning observer is not a layer of the chain. It is fed from the observer tier
 * through {@link LearningObserverAdapter}, by default asynchronously on the observer
 * thread, so it never delays a call, and an exception it throws never fails one. It sees
 * every call, including calls a middleware denied, rate limited or answered from a cache
 * (then with the middleware's exception as {@code error}, or the cached value as
 * {@code result}). Implementations must be thread-safe when they are also read from other
 * threads. <pre>{@code
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
 * <p>
 * {@code params} are the real argument values: an observer that stores or shows them is
 * responsible for not leaking secrets (see
 * {@link dev.agentmiddleware.redaction.SecretRedactor}).
 */
@FunctionalInterface
public interface LearningObserver {

	/**
	 * Called once after a call of a tool.
	 * @param sessionKey the session (conversation, thread or MCP session) of the call, or
	 * {@code null} when the caller has none
	 * @param toolName the tool's name
	 * @param params the bound arguments by parameter name; unmodifiable
	 * @param result the value the call returned, {@code null} on failure or for
	 * {@code void} tools
	 * @param error the failure, {@code null} when the call succeeded
	 */
	void onToolResult(@Nullable String sessionKey, String toolName, Map<String, @Nullable Object> params,
			@Nullable Object result, @Nullable Throwable error);

	/**
	 * Feeds {@link LearningObserver}s from the observer tier: turns each
	 * {@link ToolCallRecord} into one {@link LearningObserver#onToolResult onToolResult}
	 * call per observer, in order.
	 *
	 * <p>
	 * Asynchronous unless built {@link #synchronous(List) synchronous}. Every observer
	 * gets every record even when an earlier one throws; the first exception is then
	 * rethrown (with the others suppressed) so that the observer tier logs and counts it,
	 * without affecting the call. <pre>{@code
	 * ErrorPatternStore errors = ErrorPatternStore.builder().build();
	 * ToolCallObservers observers = ToolCallObservers.builder().observer(LearningObserverAdapter.of(errors)).build();
	 * }</pre>
	 */
	public static final class LearningObserverAdapter implements ToolCallObserver {

		private final List<LearningObserver> observers;

		private final boolean synchronous;

		private LearningObserverAdapter(List<? extends LearningObserver> observers, boolean synchronous) {
			this.observers = List.copyOf(Objects.requireNonNull(observers, "observers"));
			this.synchronous = synchronous;
		}

		/**
		 * Adapts observers for asynchronous delivery, the default of the observer tier.
		 * @param observers the learning observers, called in this order
		 * @return the adapter
		 */
		public static LearningObserverAdapter of(LearningObserver... observers) {
			return new LearningObserverAdapter(List.of(observers), false);
		}

		/**
		 * Adapts observers for asynchronous delivery, the default of the observer tier.
		 * @param observers the learning observers, called in this order
		 * @return the adapter
		 */
		public static LearningObserverAdapter of(List<? extends LearningObserver> observers) {
			return new LearningObserverAdapter(observers, false);
		}

		/**
		 * Adapts observers for synchronous delivery: each call waits for them before it
		 * returns.
		 * @param observers the learning observers, called in this order
		 * @return the adapter
		 */
		public static LearningObserverAdapter synchronous(List<? extends LearningObserver> observers) {
			return new LearningObserverAdapter(observers, true);
		}

		/**
		 * The adapted observers.
		 * @return the observers, in call order
		 */
		public List<LearningObserver> observers() {
			return this.observers;
		}

		@Override
		public void onToolCall(ToolCallRecord record) {
			ToolInvocation invocation = record.invocation();
			RuntimeException failure = null;
			for (LearningObserver observer : this.observers) {
				try {
					observer.onToolResult(invocation.sessionId(), invocation.toolName(), invocation.arguments(),
							record.result(), record.error());
				}
				catch (RuntimeException ex) {
					failure = collect(failure, ex);
				}
			}
			if (failure != null) {
				throw failure;
			}
		}

		@Override
		public boolean synchronous() {
			return this.synchronous;
		}

		private static RuntimeException collect(@Nullable RuntimeException first, RuntimeException next) {
			if (first == null) {
				return next;
			}
			first.addSuppressed(next);
			return first;
		}

		@Override
		public String toString() {
			return "LearningObserverAdapter" + this.observers;
		}

	}

}
