package dev.agentmiddleware.approval;

import java.util.Locale;

/**
 * How an approval ended, as recorded in the audit trail and counted in metrics.
 */
public enum ApprovalOutcome {

	/** A person approved this one call. */
	APPROVED(true),

	/** A person approved the call and granted the same calls for the rest of the session. */
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

	/** The same call was denied earlier in the session; denied again without asking. */
	REPEATED_DENIAL(false),

	/** The caller went away (the application restarted) before a decision. */
	ABANDONED(false),

	/**
	 * The caller cancelled the call while it waited (an MCP {@code notifications/cancelled}, a client that went
	 * away, a cancelled future): the request was withdrawn and nobody can decide it any more.
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
