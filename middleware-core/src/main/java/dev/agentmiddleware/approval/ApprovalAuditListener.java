package dev.agentmiddleware.approval;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Told about every approval outcome right after it is written to the audit trail, for
 * example to count outcomes in metrics. Must be quick and must not throw; an exception is
 * logged and ignored.
 */
@FunctionalInterface
public interface ApprovalAuditListener {

	/**
	 * Called once per outcome.
	 * @param record the audit record
	 */
	void onAudit(ApprovalAuditRecord record);

	/**
	 * One entry of the audit trail: what was decided about one call, by whom and when.
	 * Holds no argument values.
	 *
	 * @param requestId the approval request's id, or the call id when no request was made
	 * (grants, repeated denials)
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
	public record ApprovalAuditRecord(String requestId, String toolName, String argumentsHash,
			@Nullable String sessionId, @Nullable String principal, String decidedBy, ApprovalOutcome outcome,
			@Nullable String reason, Instant requestedAt, Instant decidedAt) {

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

	/**
	 * How an approval ended, as recorded in the audit trail and counted in metrics.
	 */
	public enum ApprovalOutcome {

		/** A person approved this one call. */
		APPROVED(true),

		/**
		 * A person approved the call and granted the same calls for the rest of the
		 * session.
		 */
		APPROVED_FOR_SESSION(true),

		/** A person approved the call with changed arguments. */
		APPROVED_WITH_CHANGES(true),

		/** A session grant let the call through without asking. */
		GRANTED(true),

		/** A person denied the call. */
		DENIED(false),

		/** Nobody decided in time. */
		TIMED_OUT(false),

		/** No approval provider could handle the call. */
		NO_APPROVER(false),

		/** The approval provider failed. */
		PROVIDER_FAILED(false),

		/**
		 * The same call was denied earlier in the session; denied again without asking.
		 */
		REPEATED_DENIAL(false),

		/** The caller went away (the application restarted) before a decision. */
		ABANDONED(false),

		/**
		 * The caller cancelled the call while it waited (an MCP
		 * {@code notifications/cancelled}, a client that went away, a cancelled future):
		 * the request was withdrawn and nobody can decide it any more.
		 */
		CANCELLED(false);

		private final boolean approved;

		ApprovalOutcome(boolean approved) {
			this.approved = approved;
		}

		/**
		 * Whether the call runs.
		 * @return {@code true} for the approving outcomes
		 */
		public boolean approved() {
			return this.approved;
		}

		/**
		 * The metric tag and JSON value, such as {@code approved-for-session}.
		 * @return the lower-case, hyphenated name
		 */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

}
