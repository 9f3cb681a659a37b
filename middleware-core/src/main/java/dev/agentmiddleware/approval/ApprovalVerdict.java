package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.SessionGrant.GrantScope;

import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.internal.DurationText;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * What a decision does to the call of {@link ApprovalMiddleware}: an approval runs it (for the session: with a
 * {@link SessionGrant}; with changes: with the re-bound arguments, refused when they do not bind); any other outcome
 * denies it with an {@link ApprovalDeniedException} that says why (a person's denial is also remembered for the
 * deny-repeat window); a cancelled call ends with a {@link ToolCancelledException}. Every outcome goes to the
 * {@link ApprovalAudit} first. Reasons are cut to one redacted line.
 */
final class ApprovalVerdict {

	private static final int MAX_REASON_LENGTH = 200;

	private final ApprovalStore store;

	private final ArgumentsBinder binder;

	private final SecretRedactor redactor;

	private final ApprovalAudit audit;

	private final Clock clock;

	private final Duration grantTtl;

	private final Duration timeout;

	ApprovalVerdict(ApprovalStore store, ArgumentsBinder binder, SecretRedactor redactor, ApprovalAudit audit,
			Clock clock, Duration grantTtl, Duration timeout) {
		this.store = store;
		this.binder = binder;
		this.redactor = redactor;
		this.audit = audit;
		this.clock = clock;
		this.grantTtl = grantTtl;
		this.timeout = timeout;
	}

	@Nullable Object apply(ApprovalDecision decision, ApprovalRequest request, ToolInvocation invocation,
			ToolHandler next) throws Exception {
		String toolName = request.toolName();
		String reason = sanitized(decision.reason());
		Instant now = this.clock.instant();
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
							+ sanitized(ex.getMessage());
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
				throw deny(invocation, ApprovalOutcome.TIMED_OUT,
						"nobody approved it within " + DurationText.of(this.timeout));
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
				throw deny(invocation, decision.outcome(), "the approval request ended as "
						+ decision.outcome().tagValue() + " and was not approved");
			}
		}
	}

	static ApprovalDeniedException deny(ToolInvocation invocation, ApprovalOutcome outcome, String reason) {
		// The thrown ToolDeniedException (naming this middleware) is the decision: observers see DENIED by "approval".
		return new ApprovalDeniedException(invocation.toolName(), ApprovalMiddleware.NAME, outcome, reason);
	}

	static String because(@Nullable String reason) {
		return (reason != null && !reason.isBlank()) ? ": " + reason : "";
	}

	private @Nullable String sanitized(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		String line = text.strip();
		int end = line.indexOf('\n');
		if (end >= 0) {
			line = line.substring(0, end).strip();
		}
		line = this.redactor.redactText(line);
		return (line.length() <= MAX_REASON_LENGTH) ? line : line.substring(0, MAX_REASON_LENGTH - 1) + "…";
	}

}
