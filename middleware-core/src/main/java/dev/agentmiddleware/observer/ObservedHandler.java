package dev.agentmiddleware.observer;

import java.time.Duration;
import java.time.Instant;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.CallTrace;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * The outermost handler of an observed pipeline: attaches a {@link CallTrace}, times the call and dispatches
 * one record, whatever happened inside.
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
		CallTrace trace = new CallTrace();
		Object result;
		try {
			result = this.delegate.handle(invocation.withTrace(trace));
		}
		catch (Exception | Error ex) {
			record(invocation, CallOutcome.ofFailure(ex), null, ex, startedAt, start, trace.failedDecidedBy(ex));
			throw ex;
		}
		CallOutcome outcome = trace.returnedOutcome();
		record(invocation, outcome, result, null, startedAt, start, trace.returnedDecidedBy());
		return result;
	}

	private void record(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
			@Nullable Throwable error, Instant startedAt, long start, @Nullable String decidedBy) {
		Duration duration = Duration.ofNanos(System.nanoTime() - start);
		this.observers.dispatch(new ToolCallRecord(invocation, outcome, result, error, startedAt, duration, decidedBy));
	}

}
