package dev.agentmiddleware.chain;

import java.time.Duration;
import java.time.Instant;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The outermost handler of an observed pipeline: times the call and dispatches one
 * record, whatever happened inside, with the outcome its {@link ToolCall} derived.
 */
final class ObservedHandler implements ToolHandler {

	private final ToolHandler delegate;

	private final ToolCallObservers observers;

	private final ToolCall.Listener<Started> recorder = this::record;

	ObservedHandler(ToolHandler delegate, ToolCallObservers observers) {
		this.delegate = delegate;
		this.observers = observers;
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		return ToolCall.observe(invocation, this.delegate, this.recorder,
				new Started(this.observers.clock().instant(), System.nanoTime()));
	}

	private void record(Started started, ToolInvocation invocation, CallOutcome outcome, @Nullable String decidedBy,
			@Nullable Object result, @Nullable Throwable error) {
		Duration duration = Duration.ofNanos(System.nanoTime() - started.nanos());
		ToolCall call = ToolCall.current();
		this.observers.dispatch(new ToolCallRecord(invocation, outcome, result, error, started.at(), duration,
				decidedBy, call.approvalRequestId(), call.approvalGrantedBy(), call.clientRequests()));
	}

	private record Started(Instant at, long nanos) {
	}

}
