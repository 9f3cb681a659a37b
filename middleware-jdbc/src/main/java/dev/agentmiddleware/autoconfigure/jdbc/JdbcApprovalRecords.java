package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;
import dev.agentmiddleware.approval.SessionGrant;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

import static dev.agentmiddleware.autoconfigure.jdbc.JdbcApprovalStore.millis;
import static dev.agentmiddleware.autoconfigure.jdbc.JdbcApprovalStore.truncated;

/**
 * The session grants, recorded denials and audit trail of a {@link JdbcApprovalStore}:
 * the tables {@code agent_approval_grant}, {@code agent_approval_denial} and
 * {@code agent_approval_audit}. A grant or denial recorded twice for the same session,
 * tool and arguments replaces the first, also when two instances record it at once.
 * Thread-safe. The base of the store, which adds the pending requests and their
 * decisions.
 */
abstract class JdbcApprovalRecords implements ApprovalStore {

	private static final String ANY_ARGUMENTS = "*";

	final JdbcClient jdbc;

	JdbcApprovalRecords(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public final void grant(SessionGrant grant) {
		String hash = (grant.argumentsHash() != null) ? grant.argumentsHash() : ANY_ARGUMENTS;
		upsert(() -> this.jdbc
			.sql("UPDATE agent_approval_grant SET granted_by = ?, expires_at = ? WHERE session_id = ? "
					+ "AND tool_name = ? AND arguments_hash = ?")
			.params(grant.grantedBy(), millis(grant.expiresAt()), grant.sessionId(), grant.toolName(), hash)
			.update(),
				() -> this.jdbc.sql(
						"INSERT INTO agent_approval_grant (session_id, tool_name, arguments_hash, granted_by, expires_at) "
								+ "VALUES (?, ?, ?, ?, ?)")
					.params(grant.sessionId(), grant.toolName(), hash, grant.grantedBy(), millis(grant.expiresAt()))
					.update());
	}

	@Override
	public final Optional<SessionGrant> findGrant(String sessionId, String toolName, String argumentsHash,
			Instant now) {
		return this.jdbc
			.sql("SELECT session_id, tool_name, arguments_hash, granted_by, expires_at FROM agent_approval_grant "
					+ "WHERE session_id = ? AND tool_name = ? AND arguments_hash IN (?, ?) AND expires_at > ? "
					+ "ORDER BY expires_at DESC")
			.params(sessionId, toolName, argumentsHash, ANY_ARGUMENTS, millis(now))
			.query((rs, row) -> new SessionGrant(rs.getString(1), rs.getString(2),
					ANY_ARGUMENTS.equals(rs.getString(3)) ? null : rs.getString(3), rs.getString(4),
					Instant.ofEpochMilli(rs.getLong(5))))
			.list()
			.stream()
			.findFirst();
	}

	@Override
	public final void recordDenial(DeniedCall denial) {
		upsert(() -> this.jdbc
			.sql("UPDATE agent_approval_denial SET denied_by = ?, reason = ?, denied_at = ? WHERE session_id = ? "
					+ "AND tool_name = ? AND arguments_hash = ?")
			.params(denial.deniedBy(), truncated(denial.reason()), millis(denial.deniedAt()), denial.sessionId(),
					denial.toolName(), denial.argumentsHash())
			.update(),
				() -> this.jdbc
					.sql("INSERT INTO agent_approval_denial (session_id, tool_name, arguments_hash, denied_by, reason, "
							+ "denied_at) VALUES (?, ?, ?, ?, ?, ?)")
					.params(denial.sessionId(), denial.toolName(), denial.argumentsHash(), denial.deniedBy(),
							truncated(denial.reason()), millis(denial.deniedAt()))
					.update());
	}

	@Override
	public final Optional<DeniedCall> findDenial(String sessionId, String toolName, String argumentsHash,
			Instant since) {
		return this.jdbc.sql(
				"SELECT session_id, tool_name, arguments_hash, denied_by, reason, denied_at FROM agent_approval_denial "
						+ "WHERE session_id = ? AND tool_name = ? AND arguments_hash = ? AND denied_at >= ?")
			.params(sessionId, toolName, argumentsHash, millis(since))
			.query((rs, row) -> new DeniedCall(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getString(5), Instant.ofEpochMilli(rs.getLong(6))))
			.optional();
	}

	@Override
	public final void audit(ApprovalAuditRecord record) {
		this.jdbc
			.sql("INSERT INTO agent_approval_audit (request_id, tool_name, arguments_hash, session_id, principal, "
					+ "decided_by, outcome, reason, requested_at, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(record.requestId(), record.toolName(), record.argumentsHash(), record.sessionId(),
					record.principal(), record.decidedBy(), record.outcome().name(), truncated(record.reason()),
					millis(record.requestedAt()), millis(record.decidedAt()))
			.update();
	}

	@Override
	public final List<ApprovalAuditRecord> auditTrail(int limit) {
		return this.jdbc
			.sql("SELECT request_id, tool_name, arguments_hash, session_id, principal, decided_by, outcome, reason, "
					+ "requested_at, decided_at FROM agent_approval_audit ORDER BY seq DESC LIMIT ?")
			.param(limit)
			.query((rs, row) -> new ApprovalAuditRecord(rs.getString(1), rs.getString(2), rs.getString(3),
					rs.getString(4), rs.getString(5), rs.getString(6), ApprovalOutcome.valueOf(rs.getString(7)),
					rs.getString(8), Instant.ofEpochMilli(rs.getLong(9)), Instant.ofEpochMilli(rs.getLong(10))))
			.list();
	}

	// Update first, insert if nothing was there; an insert that loses a race with another
	// instance updates instead.
	private static void upsert(IntSupplier update, Runnable insert) {
		if (update.getAsInt() > 0) {
			return;
		}
		try {
			insert.run();
		}
		catch (DuplicateKeyException ex) {
			update.getAsInt();
		}
	}

}
