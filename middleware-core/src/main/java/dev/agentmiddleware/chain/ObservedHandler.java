package dev.agentmiddleware.chain;

import java.time.Duration;
import java.time.Instant;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.callrecord.ToolCallRecord;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * The outermost handler of an observed pipeline: times the call and dispatches one record, whatever happened
 * inside, with the outcome its {@link ToolCall} derived.
 */
final class ObservedHandler implements ToolHandler {

	private final ToolHandler delegate;

	private final ToolCallObservers observers;

	ObservedHandler(ToolHandler delegate, ToolCallObservers observers) {
		this.delegate = delegate;
		this.observers = observers;
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		Instant startedAt = this.observers.clock().instant();
		long start = System.nanoTime();
		return ToolCall.observe(invocation, this.delegate, (outcome, decidedBy, result, error) -> record(invocation,
				outcome, result, error, startedAt, start, decidedBy));
	}

	private void record(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
			@Nullable Throwable error, Instant startedAt, long start, @Nullable String decidedBy) {
		Duration duration = Duration.ofNanos(System.nanoTime() - start);
		this.observers.dispatch(new ToolCallRecord(invocation, outcome, result, error, startedAt, duration, decidedBy));
	}

}
