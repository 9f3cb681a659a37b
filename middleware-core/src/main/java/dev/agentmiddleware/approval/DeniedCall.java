package dev.agentmiddleware.approval;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A call that a person denied, remembered so that the same call in the same session is denied again at once.
 *
 * @param sessionId the session
 * @param toolName the tool
 * @param argumentsHash the hash of the call's exact arguments
 * @param deniedBy who denied it
 * @param reason the reason given, or {@code null}
 * @param deniedAt when
 */
public record DeniedCall(String sessionId, String toolName, String argumentsHash, String deniedBy,
		@Nullable String reason, Instant deniedAt) {

	/**
	 * Validates the record.
	 */
	public DeniedCall {
		Objects.requireNonNull(sessionId, "sessionId");
		Objects.requireNonNull(toolName, "toolName");
		Objects.requireNonNull(argumentsHash, "argumentsHash");
		Objects.requireNonNull(deniedBy, "deniedBy");
		Objects.requireNonNull(deniedAt, "deniedAt");
	}

}
