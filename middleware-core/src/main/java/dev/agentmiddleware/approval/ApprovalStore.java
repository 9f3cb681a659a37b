package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import org.jspecify.annotations.Nullable;

/**
 * Where pending approval requests, their decisions, session grants, recent denials and
 * the audit trail live. In memory by default ({@link InMemoryApprovalStore}); a store
 * shared by several application instances (a database) lets a decision posted to one
 * instance release the call waiting on another.
 *
 * <p>
 * The first decision of a request wins, atomically: {@link #decide} and {@link #close}
 * never overwrite one. A request that has expired can no longer be decided.
 * Implementations are thread-safe.
 */
public interface ApprovalStore {

	/**
	 * Saves a new pending request.
	 * @param request the request
	 */
	void add(ApprovalRequest request);

	/**
	 * The requests waiting for a decision that have not expired, oldest first.
	 * @param now the current time
	 * @return the pending requests
	 */
	List<ApprovalRequest> pending(Instant now);

	/**
	 * A request, pending or decided.
	 * @param id the request id
	 * @return the request, or empty when unknown
	 */
	Optional<ApprovalRequest> find(String id);

	/**
	 * Decides a pending request, unless it has been decided or has expired.
	 * @param id the request id
	 * @param decision the decision
	 * @param now the current time
	 * @return whether the decision was taken
	 */
	DecideResult decide(String id, ApprovalDecision decision, Instant now);

	/**
	 * Waits for the decision of a request, at most until {@code deadline} by
	 * {@code clock}.
	 * @param id the request id
	 * @param deadline when to give up
	 * @param clock the clock the deadline is measured with
	 * @return the decision, or empty when none came in time
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	Optional<ApprovalDecision> awaitDecision(String id, Instant deadline, Clock clock) throws InterruptedException;

	/**
	 * Ends a request: stores {@code fallback} if it is still undecided, and returns the
	 * decision that stands. Called by the waiting call once it stops waiting, so a
	 * decision racing with the timeout is never lost.
	 * @param id the request id
	 * @param fallback the decision when there is none yet, such as a timeout
	 * @param now the current time
	 * @return the decision that stands
	 */
	ApprovalDecision close(String id, ApprovalDecision fallback, Instant now);

	/**
	 * Keeps a pending request from being taken for abandoned while no call waits for it,
	 * until a point in time: between the rounds of a call served in rounds (MCP
	 * {@code 2026-07-28} {@code input_required}), whose retry, on any instance, continues
	 * the request. A store that abandons requests whose caller is gone (the JDBC store)
	 * must honour it; the default does nothing, for stores that never abandon requests.
	 * @param id the request id
	 * @param until the time until which the request counts as having a caller, such as
	 * its expiry
	 */
	default void keepPending(String id, Instant until) {
	}

	/**
	 * Saves a session grant.
	 * @param grant the grant
	 */
	void grant(SessionGrant grant);

	/**
	 * Whether a grant lets a call through.
	 * @param sessionId the call's session
	 * @param toolName the tool
	 * @param argumentsHash the hash of the call's arguments
	 * @param now the current time
	 * @return the grant that covers the call, if any
	 */
	Optional<SessionGrant> findGrant(String sessionId, String toolName, String argumentsHash, Instant now);

	/**
	 * Remembers a denied call.
	 * @param denial the denial
	 */
	void recordDenial(DeniedCall denial);

	/**
	 * The latest denial of the same call in the same session since a point in time.
	 * @param sessionId the session
	 * @param toolName the tool
	 * @param argumentsHash the hash of the call's arguments
	 * @param since how far back to look
	 * @return the denial, if any
	 */
	Optional<DeniedCall> findDenial(String sessionId, String toolName, String argumentsHash, Instant since);

	/**
	 * Appends to the audit trail.
	 * @param record the record
	 */
	void audit(ApprovalAuditRecord record);

	/**
	 * The latest audit records, newest first.
	 * @param limit how many at most
	 * @return the records
	 */
	List<ApprovalAuditRecord> auditTrail(int limit);

	/**
	 * The result of {@link #decide}.
	 */
	enum DecideResult {

		/** The decision was taken. */
		DECIDED,

		/** No request has this id. */
		UNKNOWN,

		/** The request was already decided (or abandoned). */
		ALREADY_DECIDED,

		/** The request expired before the decision came. */
		EXPIRED

	}

	/**
	 * A call that a person denied, remembered so that the same call in the same session
	 * is denied again at once.
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

}
