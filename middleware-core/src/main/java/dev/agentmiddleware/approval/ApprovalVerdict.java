package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.SessionGrant.GrantScope;

import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.internal.DurationText;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * What a decision does to the call of {@link ApprovalMiddleware}: an approval runs it
 * (for the session: with a {@link SessionGrant}; with changes: with the re-bound
 * arguments, refused when they do not bind); any other outcome denies it with an
 * {@link ApprovalDeniedException} that says why (a person's denial is also remembered for
 * the deny-repeat window); a cancelled call ends with a {@link ToolCancelledException}.
 * Every outcome goes to the {@link ApprovalAudit} first. Reasons are cut to one redacted
 * line ({@link ApprovalArguments#reason}).
 */
final class ApprovalVerdict {

	private final ApprovalStore store;

	private final ArgumentsBinder binder;

	private final ApprovalArguments arguments;

	private final ApprovalAudit audit;

	private final Duration grantTtl;

	ApprovalVerdict(ApprovalStore store, ArgumentsBinder binder, ApprovalArguments arguments, ApprovalAudit audit,
			Duration grantTtl) {
		this.store = store;
		this.binder = binder;
		this.arguments = arguments;
		this.audit = audit;
		this.grantTtl = grantTtl;
	}

	/**
	 * Applies a decision to its call.
	 * @param now the time the decision is applied: the start of a session grant, the time
	 * of a denial
	 */
	@Nullable Object apply(ApprovalDecision decision, ApprovalRequest request, ToolInvocation invocation, ToolHandler next,
			Instant now) throws Exception {
		String toolName = request.toolName();
		String reason = this.arguments.reason(decision.reason());
		switch (decision.outcome()) {
			case APPROVED -> {
				this.audit.record(request, decision, null);
				return next.handle(invocation);
			}
			case APPROVED_FOR_SESSION -> {
				String sessionId = request.sessionId();
				if (sessionId != null) {
					String scoped = (decision.grantScope() == GrantScope.TOOL) ? null : request.argumentsHash();
					this.store.grant(new SessionGrant(sessionId, toolName, scoped, decision.decidedBy(),
							now.plus(this.grantTtl)));
				}
				this.audit.record(request, decision, null);
				return next.handle(invocation);
			}
			case APPROVED_WITH_CHANGES -> {
				Map<String, @Nullable Object> changed;
				try {
					changed = this.binder.bind(invocation.tool(), Objects.requireNonNull(decision.changedArguments()));
				}
				catch (RuntimeException ex) {
					String refused = "the arguments " + decision.decidedBy() + " changed were refused: "
							+ this.arguments.reason(ex.getMessage());
					this.audit.record(request, ApprovalDecision.deny(decision.decidedBy(), refused), refused);
					throw deny(invocation, ApprovalOutcome.DENIED, refused);
				}
				this.audit.record(request, decision, null);
				return next.handle(invocation.withArguments(changed));
			}
			case DENIED -> {
				String sessionId = request.sessionId();
				if (sessionId != null) {
					this.store.recordDenial(new DeniedCall(sessionId, toolName, request.argumentsHash(),
							decision.decidedBy(), reason, now));
				}
				this.audit.record(request, decision, reason);
				throw deny(invocation, ApprovalOutcome.DENIED, decision.decidedBy() + " denied it" + because(reason));
			}
			case TIMED_OUT -> {
				this.audit.record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.TIMED_OUT, "nobody approved it within "
						+ DurationText.of(Duration.between(request.createdAt(), request.expiresAt())));
			}
			case NO_APPROVER -> {
				this.audit.record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.NO_APPROVER,
						"it needs a human's approval and no approver is configured");
			}
			case PROVIDER_FAILED -> {
				this.audit.record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.PROVIDER_FAILED,
						"the approval provider '" + decision.decidedBy() + "' failed, so it was not approved");
			}
			case ABANDONED -> {
				this.audit.record(request, decision, reason);
				throw deny(invocation, ApprovalOutcome.ABANDONED, "it was still waiting for approval when "
						+ ((reason != null) ? reason : "the wait was abandoned") + ", so it was not approved");
			}
			case CANCELLED -> {
				this.audit.record(request, decision, reason);
				throw new ToolCancelledException(invocation.toolName(), ApprovalMiddleware.NAME, reason, null);
			}
			default -> {
				this.audit.record(request, decision, reason);
				throw deny(invocation, decision.outcome(),
						"the approval request ended as " + decision.outcome().tagValue() + " and was not approved");
			}
		}
	}

	/**
	 * Applies an approval again, on the retry of a call served in rounds whose earlier
	 * round applied it and recorded it: the call runs (with the changed arguments, if
	 * any), and nothing is recorded again.
	 */
	@Nullable Object applyAgain(ApprovalDecision decision, ApprovalRequest request, ToolInvocation invocation, ToolHandler next)
			throws Exception {
		if (decision.outcome() == ApprovalOutcome.APPROVED_WITH_CHANGES) {
			return next.handle(invocation.withArguments(
					this.binder.bind(invocation.tool(), Objects.requireNonNull(decision.changedArguments()))));
		}
		return next.handle(invocation);
	}

	/**
	 * Whether a decision lets its call run.
	 */
	static boolean approves(ApprovalDecision decision) {
		return switch (decision.outcome()) {
			case APPROVED, APPROVED_FOR_SESSION, APPROVED_WITH_CHANGES -> true;
			default -> false;
		};
	}

	static ApprovalDeniedException deny(ToolInvocation invocation, ApprovalOutcome outcome, String reason) {
		// The thrown ToolDeniedException (naming this middleware) is the decision:
		// observers see DENIED by "approval".
		return new ApprovalDeniedException(invocation.toolName(), ApprovalMiddleware.NAME, outcome, reason);
	}

	static String because(@Nullable String reason) {
		return (reason != null && !reason.isBlank()) ? ": " + reason : "";
	}

}
