package dev.agentmiddleware.approval;

import java.util.Objects;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import org.jspecify.annotations.Nullable;

/**
 * A decision on one {@link ApprovalRequest}. It applies to that request's call only: its
 * tool, its exact arguments, its session; it is never reused for another call.
 * <pre>{@code
 * ApprovalDecision.approve("alice");
 * ApprovalDecision.approveForSession("alice", GrantScope.ARGUMENTS);
 * ApprovalDecision.approveWithArguments("alice", "{\"path\":\"old/notes.txt\"}");
 * ApprovalDecision.deny("alice", "keep the logs");
 * }</pre>
 *
 * @param outcome what was decided
 * @param decidedBy who decided: a user name, a provider name, or {@code system}
 * @param reason why, for denials; {@code null} when none was given
 * @param changedArguments for {@link ApprovalOutcome#APPROVED_WITH_CHANGES}, the complete
 * new arguments object as JSON, bound and validated again like a new call
 * @param grantScope for {@link ApprovalOutcome#APPROVED_FOR_SESSION}, what the grant
 * covers
 */
public record ApprovalDecision(ApprovalOutcome outcome, String decidedBy, @Nullable String reason,
		@Nullable String changedArguments, @Nullable GrantScope grantScope) {

	/**
	 * Who decides the outcomes nobody decided: timeouts, no approver, failed providers.
	 */
	public static final String SYSTEM = "system";

	/**
	 * Validates the decision.
	 */
	public ApprovalDecision {
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(decidedBy, "decidedBy");
		if (outcome == ApprovalOutcome.APPROVED_WITH_CHANGES && changedArguments == null) {
			throw new IllegalArgumentException("An approval with changed arguments needs the changed arguments");
		}
		if (outcome == ApprovalOutcome.APPROVED_FOR_SESSION && grantScope == null) {
			grantScope = GrantScope.ARGUMENTS;
		}
	}

	/**
	 * Approves this one call.
	 * @param decidedBy who approved
	 * @return the decision
	 */
	public static ApprovalDecision approve(String decidedBy) {
		return new ApprovalDecision(ApprovalOutcome.APPROVED, decidedBy, null, null, null);
	}

	/**
	 * Approves the call and lets the same calls of the session through without asking,
	 * until the grant expires.
	 * @param decidedBy who approved
	 * @param scope whether the grant covers the exact arguments or the whole tool
	 * @return the decision
	 */
	public static ApprovalDecision approveForSession(String decidedBy, GrantScope scope) {
		return new ApprovalDecision(ApprovalOutcome.APPROVED_FOR_SESSION, decidedBy, null, null, scope);
	}

	/**
	 * Approves the call with other arguments of the same tool.
	 * @param decidedBy who approved
	 * @param argumentsJson the complete new arguments object as JSON
	 * @return the decision
	 */
	public static ApprovalDecision approveWithArguments(String decidedBy, String argumentsJson) {
		return new ApprovalDecision(ApprovalOutcome.APPROVED_WITH_CHANGES, decidedBy, null,
				Objects.requireNonNull(argumentsJson, "argumentsJson"), null);
	}

	/**
	 * Denies the call.
	 * @param decidedBy who denied
	 * @param reason why, shown to the model; {@code null} for none
	 * @return the decision
	 */
	public static ApprovalDecision deny(String decidedBy, @Nullable String reason) {
		return new ApprovalDecision(ApprovalOutcome.DENIED, decidedBy, reason, null, null);
	}

	/**
	 * The decision of a provider that could not handle the call.
	 * @return the decision
	 */
	public static ApprovalDecision noApprover() {
		return new ApprovalDecision(ApprovalOutcome.NO_APPROVER, SYSTEM, null, null, null);
	}

	static ApprovalDecision system(ApprovalOutcome outcome, @Nullable String reason) {
		return new ApprovalDecision(outcome, SYSTEM, reason, null, null);
	}

}
