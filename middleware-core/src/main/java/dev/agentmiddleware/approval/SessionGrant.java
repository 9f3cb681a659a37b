package dev.agentmiddleware.approval;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An approval for the rest of a session: calls of the tool in that session (with exactly
 * these arguments, when {@code argumentsHash} is set) run without asking until the grant
 * expires.
 *
 * @param sessionId the session
 * @param toolName the tool
 * @param argumentsHash the hash of the exact arguments covered, or {@code null} for every
 * call of the tool
 * @param grantedBy who approved
 * @param expiresAt when the grant ends
 */
public record SessionGrant(String sessionId, String toolName, @Nullable String argumentsHash, String grantedBy,
		Instant expiresAt) {

	/**
	 * Validates the grant.
	 */
	public SessionGrant {
		Objects.requireNonNull(sessionId, "sessionId");
		Objects.requireNonNull(toolName, "toolName");
		Objects.requireNonNull(grantedBy, "grantedBy");
		Objects.requireNonNull(expiresAt, "expiresAt");
	}

	/**
	 * Whether the grant lets this call through.
	 * @param sessionId the call's session
	 * @param toolName the call's tool
	 * @param argumentsHash the hash of the call's arguments
	 * @param now the current time
	 * @return {@code true} if it covers the call and has not expired
	 */
	public boolean covers(String sessionId, String toolName, String argumentsHash, Instant now) {
		return this.sessionId.equals(sessionId) && this.toolName.equals(toolName)
				&& (this.argumentsHash == null || this.argumentsHash.equals(argumentsHash))
				&& now.isBefore(this.expiresAt);
	}

	/**
	 * What an approval for the session lets through without asking again.
	 */
	public enum GrantScope {

		/**
		 * Calls of the same tool with exactly the same arguments (compared by the hash of
		 * their canonical JSON).
		 */
		ARGUMENTS,

		/** Every call of the same tool. */
		TOOL

	}

}
