package dev.agentmiddleware.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.InvocationSource;
import org.jspecify.annotations.Nullable;

/**
 * What the audit trail keeps of one tool call: who called which tool, what was decided
 * and by which layer, and what happened. It never holds a session id (only its
 * {@link dev.agentmiddleware.tool.SessionFingerprint fingerprint}) nor an argument value,
 * except the redacted arguments of a tool whose audit includes them. <pre>{@code
 * AuditRecord record = store.find(AuditQuery.all().withTool("delete_file")).get(0);
 * record.outcome();       // DENIED
 * record.decidedBy();     // "approval"
 * }</pre>
 *
 * @param time when the call entered the chain
 * @param callId the call's id ({@link dev.agentmiddleware.tool.ToolInvocation#callId()})
 * @param tool the tool's name
 * @param source where the call came from
 * @param principal the caller's name, or {@code null} for an anonymous call
 * @param sessionFingerprint the fingerprint of the call's session, or {@code null}
 * without a session
 * @param traceId the id of the trace the call belongs to, or {@code null} when none is
 * known
 * @param outcome how the call ended
 * @param decidedBy the layer that decided the outcome (the middleware that refused,
 * cached or short-circuited it), or {@code null} when the tool itself ran
 * @param approvalRequestId the approval request a person was asked about the call, or
 * {@code null}
 * @param approvalGrantedBy who granted the session grant that let the call through
 * without asking, or {@code null}
 * @param duration how long the call took
 * @param argumentsDigest the lower-case hex SHA-256 of the canonical JSON of the
 * arguments
 * @param arguments the arguments as redacted JSON, only for a tool whose audit includes
 * them, else {@code null}
 * @param resultSize the size of the result (characters of text, bytes of binary content),
 * or {@code null} when the call returned nothing
 * @param clientRequests the requests the tool made to its client (elicitation, sampling),
 * in order, each with how it ended and how long it took, never what was asked or
 * answered; empty when it made none
 */
public record AuditRecord(Instant time, String callId, String tool, InvocationSource source, @Nullable String principal,
		@Nullable String sessionFingerprint, @Nullable String traceId, CallOutcome outcome, @Nullable String decidedBy,
		@Nullable String approvalRequestId, @Nullable String approvalGrantedBy, Duration duration,
		String argumentsDigest, @Nullable String arguments, @Nullable Long resultSize,
		List<ClientRequest> clientRequests) {

	/**
	 * Validates the record.
	 */
	public AuditRecord {
		Objects.requireNonNull(time, "time");
		Objects.requireNonNull(callId, "callId");
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(duration, "duration");
		Objects.requireNonNull(argumentsDigest, "argumentsDigest");
		clientRequests = List.copyOf(Objects.requireNonNull(clientRequests, "clientRequests"));
	}

	/**
	 * A record of a call whose tool made no request to its client.
	 * @param time when the call entered the chain
	 * @param callId the call's id
	 * @param tool the tool's name
	 * @param source where the call came from
	 * @param principal the caller's name, or {@code null}
	 * @param sessionFingerprint the fingerprint of the call's session, or {@code null}
	 * @param traceId the id of the trace the call belongs to, or {@code null}
	 * @param outcome how the call ended
	 * @param decidedBy the layer that decided the outcome, or {@code null}
	 * @param approvalRequestId the approval request a person was asked about the call, or
	 * {@code null}
	 * @param approvalGrantedBy who granted the session grant that let the call through,
	 * or {@code null}
	 * @param duration how long the call took
	 * @param argumentsDigest the lower-case hex SHA-256 of the canonical JSON of the
	 * arguments
	 * @param arguments the arguments as redacted JSON, or {@code null}
	 * @param resultSize the size of the result, or {@code null}
	 */
	public AuditRecord(Instant time, String callId, String tool, InvocationSource source, @Nullable String principal,
			@Nullable String sessionFingerprint, @Nullable String traceId, CallOutcome outcome,
			@Nullable String decidedBy, @Nullable String approvalRequestId, @Nullable String approvalGrantedBy,
			Duration duration, String argumentsDigest, @Nullable String arguments, @Nullable Long resultSize) {
		this(time, callId, tool, source, principal, sessionFingerprint, traceId, outcome, decidedBy, approvalRequestId,
				approvalGrantedBy, duration, argumentsDigest, arguments, resultSize, List.of());
	}

}
