package dev.agentmiddleware.approval;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One entry of the audit trail: what was decided about one call, by whom and when. Holds no argument values.
 *
 * @param requestId the approval request's id, or the call id when no request was made (grants, repeated denials)
 * @param toolName the tool
 * @param argumentsHash the hash of the call's arguments
 * @param sessionId the caller's session, or {@code null}
 * @param principal the caller's principal, or {@code null}
 * @param decidedBy who decided: a user, a provider, or {@code system}
 * @param outcome the outcome
 * @param reason the reason given, or {@code null}
 * @param requestedAt when the call asked
 * @param decidedAt when it was decided
 */
public record ApprovalAuditRecord(String requestId, String toolName, String argumentsHash, @Nullable String sessionId,
		@Nullable String principal, String decidedBy, ApprovalOutcome outcome, @Nullable String reason,
		Instant requestedAt, Instant decidedAt) {

	/**
	 * Validates the record.
	 */
	public ApprovalAuditRecord {
		Objects.requireNonNull(requestId, "requestId");
		Objects.requireNonNull(toolName, "toolName");
		Objects.requireNonNull(argumentsHash, "argumentsHash");
		Objects.requireNonNull(decidedBy, "decidedBy");
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(requestedAt, "requestedAt");
		Objects.requireNonNull(decidedAt, "decidedAt");
	}

}
