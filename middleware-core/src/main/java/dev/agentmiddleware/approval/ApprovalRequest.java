package dev.agentmiddleware.approval;

import java.time.Instant;
import java.util.Objects;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;

/**
 * One call waiting for a human's decision. Holds no secret: the arguments are redacted
 * JSON, and the exact arguments are known only through their hash, to which the decision
 * is bound.
 *
 * @param id the request's unique id, which decisions name
 * @param toolName the tool to be called
 * @param safety the tool's safety level
 * @param arguments the arguments as JSON, with secret values replaced by
 * {@code [REDACTED]}
 * @param argumentsHash the SHA-256 (hex) of the canonical JSON of the exact arguments
 * @param sessionId the caller's session, or {@code null}
 * @param principal the caller's principal name, or {@code null}
 * @param summary a one-line human summary, such as {@code delete_file
 * {"path":"notes.txt"}}
 * @param createdAt when the request was made
 * @param expiresAt when it is denied unless decided
 */
public record ApprovalRequest(String id, String toolName, SafetyLevel safety, String arguments, String argumentsHash,
		@Nullable String sessionId, @Nullable String principal, String summary, Instant createdAt, Instant expiresAt) {

	/**
	 * Validates the request.
	 */
	public ApprovalRequest {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(toolName, "toolName");
		Objects.requireNonNull(safety, "safety");
		Objects.requireNonNull(arguments, "arguments");
		Objects.requireNonNull(argumentsHash, "argumentsHash");
		Objects.requireNonNull(summary, "summary");
		Objects.requireNonNull(createdAt, "createdAt");
		Objects.requireNonNull(expiresAt, "expiresAt");
	}

	/**
	 * Whether the request can no longer be decided.
	 * @param now the current time
	 * @return {@code true} at or after {@link #expiresAt()}
	 */
	public boolean isExpired(Instant now) {
		return !now.isBefore(this.expiresAt);
	}

}
