package dev.agentmiddleware.callrecord;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Receives one {@link ToolCallRecord} after every call of every tool it watches,
 * including calls a middleware denied, rate limited or answered from a cache.
 *
 * <p>
 * Observers are not layers of the chain: they cannot change a call, and a throwing or
 * slow observer never fails or delays one. By default records are delivered
 * asynchronously, from a bounded queue on a background thread (records that do not fit
 * are dropped and counted). An observer that must see each record before the call returns
 * overrides {@link #synchronous()}; it still cannot fail the call. <pre>{@code
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
	 * Whether records are delivered on the caller's thread, before the call returns.
	 * Default {@code false}.
	 * @return {@code true} for synchronous delivery
	 */
	default boolean synchronous() {
		return false;
	}

	/**
	 * What happened in one tool call.
	 *
	 * @param invocation the call as it entered the chain
	 * @param outcome how it ended
	 * @param result the value returned, {@code null} on failure or for {@code void} tools
	 * @param error the failure, {@code null} on success
	 * @param startedAt when the call entered the chain
	 * @param duration how long the whole chain took
	 * @param decidedBy the middleware that decided the outcome (denied, cached, rate
	 * limited, short-circuited, failed in a hook), or {@code null} when the tool itself
	 * ran and decided it
	 * @param approvalRequestId the approval request a person was asked about the call, or
	 * {@code null}
	 * @param approvalGrantedBy who granted the session grant that let the call through
	 * without asking, or {@code null}
	 * @param clientRequests the requests the tool made to its client (elicitation,
	 * sampling), in order; empty when it made none
	 */
	public record ToolCallRecord(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
			@Nullable Throwable error, Instant startedAt, Duration duration, @Nullable String decidedBy,
			@Nullable String approvalRequestId, @Nullable String approvalGrantedBy,
			List<ClientRequest> clientRequests) {

		/**
		 * Validates the record.
		 */
		public ToolCallRecord {
			clientRequests = List.copyOf(Objects.requireNonNull(clientRequests, "clientRequests"));
		}

		/**
		 * A record of a call whose tool made no request to its client.
		 * @param invocation the call as it entered the chain
		 * @param outcome how it ended
		 * @param result the value returned
		 * @param error the failure
		 * @param startedAt when the call entered the chain
		 * @param duration how long the whole chain took
		 * @param decidedBy the middleware that decided the outcome
		 * @param approvalRequestId the approval request a person was asked about the
		 * call, or {@code null}
		 * @param approvalGrantedBy who granted the session grant that let the call
		 * through without asking, or {@code null}
		 */
		public ToolCallRecord(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
				@Nullable Throwable error, Instant startedAt, Duration duration, @Nullable String decidedBy,
				@Nullable String approvalRequestId, @Nullable String approvalGrantedBy) {
			this(invocation, outcome, result, error, startedAt, duration, decidedBy, approvalRequestId,
					approvalGrantedBy, List.of());
		}

		/**
		 * A record of a call that involved no approval.
		 * @param invocation the call as it entered the chain
		 * @param outcome how it ended
		 * @param result the value returned
		 * @param error the failure
		 * @param startedAt when the call entered the chain
		 * @param duration how long the whole chain took
		 * @param decidedBy the middleware that decided the outcome
		 */
		public ToolCallRecord(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
				@Nullable Throwable error, Instant startedAt, Duration duration, @Nullable String decidedBy) {
			this(invocation, outcome, result, error, startedAt, duration, decidedBy, null, null);
		}

	}

}
