package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit of {@link ApprovalMiddleware}: every outcome becomes one
 * {@link ApprovalAuditRecord}, written to the {@link ApprovalStore}'s trail, logged and
 * given to each {@link ApprovalAuditListener} (a failing listener is logged and skipped).
 * Outcomes are counted once, by a listener: the auto-configuration's counter
 * {@code agent.tool.approvals{outcome, agent.tool.name}}. The metrics here count only
 * that a person was asked ({@link MiddlewareEvent#APPROVAL_REQUESTED}), which is not an
 * outcome. Thread-safe.
 */
final class ApprovalAudit {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalMiddleware.class);

	private final ApprovalStore store;

	private final MiddlewareMetrics metrics;

	private final List<ApprovalAuditListener> listeners;

	private final Clock clock;

	ApprovalAudit(ApprovalStore store, MiddlewareMetrics metrics, List<ApprovalAuditListener> listeners, Clock clock) {
		this.store = store;
		this.metrics = metrics;
		this.listeners = List.copyOf(listeners);
		this.clock = clock;
	}

	/**
	 * Counts that a person is asked about a call.
	 */
	void requested(ApprovalRequest request) {
		this.metrics.count(MiddlewareEvent.APPROVAL_REQUESTED, request.toolName());
	}

	/**
	 * Records the outcome of a request a person (or the system, failing closed) decided.
	 */
	void record(ApprovalRequest request, ApprovalDecision decision, @Nullable String reason) {
		publish(new ApprovalAuditRecord(request.id(), request.toolName(), request.argumentsHash(), request.sessionId(),
				request.principal(), decision.decidedBy(), decision.outcome(), reason, request.createdAt(),
				this.clock.instant()));
	}

	/**
	 * Records an outcome the gate decided without asking (a grant or a repeated denial).
	 */
	void record(ToolInvocation invocation, String hash, Instant at, String decidedBy, ApprovalOutcome outcome,
			@Nullable String reason) {
		publish(new ApprovalAuditRecord(invocation.callId(), invocation.toolName(), hash, invocation.sessionId(),
				invocation.principalName(), decidedBy, outcome, reason, at, at));
	}

	private void publish(ApprovalAuditRecord record) {
		this.store.audit(record);
		logger.info("Approval {} of tool '{}' (session {}): {} by {}", record.requestId(), record.toolName(),
				SessionFingerprint.of(record.sessionId()), record.outcome().tagValue(), record.decidedBy());
		for (ApprovalAuditListener listener : this.listeners) {
			try {
				listener.onAudit(record);
			}
			catch (RuntimeException ex) {
				logger.warn("Approval audit listener {} failed: {}", listener.getClass().getName(), ex.toString());
			}
		}
	}

}
