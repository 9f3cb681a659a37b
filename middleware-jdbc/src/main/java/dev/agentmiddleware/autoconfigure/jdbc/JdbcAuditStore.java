package dev.agentmiddleware.autoconfigure.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

import javax.sql.DataSource;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.InvocationSource;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.support.JdbcUtils;

/**
 * An {@link AuditStore} in the application's database (H2 or PostgreSQL), table
 * {@code agent_audit_record}: shared by every instance on the database, so that each sees
 * the others' records. A batch is one JDBC batch insert; a failed batch throws, and the
 * audit trail's writer keeps it and writes it again. Thread-safe. <pre>{@code
 * JdbcAuditStore store = new JdbcAuditStore(dataSource);
 * store.initializeSchema();
 * }</pre>
 */
public final class JdbcAuditStore implements AuditStore {

	private static final String COLUMNS = "recorded_at, call_id, tool, source, principal, session_fingerprint, "
			+ "trace_id, outcome, decided_by, approval_request_id, approval_granted_by, duration_micros, "
			+ "arguments_digest, arguments, result_size, client_requests";

	private final DataSource dataSource;

	private final JdbcTemplate jdbc;

	/**
	 * Creates the store.
	 * @param dataSource the database
	 */
	public JdbcAuditStore(DataSource dataSource) {
		this.dataSource = dataSource;
		this.jdbc = new JdbcTemplate(dataSource);
	}

	/**
	 * Creates {@code agent_audit_record} and its index unless they exist, with the schema
	 * for the database's platform, and adds the columns a table created by an earlier
	 * version lacks ({@code client_requests}).
	 * @throws IllegalStateException if the database is neither H2 nor PostgreSQL
	 */
	public void initializeSchema() {
		String product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(this.dataSource, DatabaseMetaData::getDatabaseProductName);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not determine the database of the audit store", ex);
		}
		String name = product.toLowerCase(Locale.ROOT);
		String platform = name.contains("postgres") ? "postgresql" : name.contains("h2") ? "h2" : null;
		if (platform == null) {
			throw new IllegalStateException("No audit store schema for " + product + " (H2 and PostgreSQL have one); "
					+ "create agent_audit_record yourself and set agent.middleware.audit.jdbc.initialize-schema=false");
		}
		new ResourceDatabasePopulator(new ClassPathResource("audit/schema-" + platform + ".sql", JdbcAuditStore.class))
			.execute(this.dataSource);
	}

	@Override
	public void append(List<AuditRecord> records) {
		if (records.isEmpty()) {
			return;
		}
		this.jdbc.batchUpdate(
				"INSERT INTO agent_audit_record (" + COLUMNS
						+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				records, records.size(), (statement, record) -> {
					statement.setTimestamp(1, Timestamp.from(record.time()));
					statement.setString(2, record.callId());
					statement.setString(3, record.tool());
					statement.setString(4, record.source().name());
					statement.setString(5, record.principal());
					statement.setString(6, record.sessionFingerprint());
					statement.setString(7, record.traceId());
					statement.setString(8, record.outcome().name());
					statement.setString(9, record.decidedBy());
					statement.setString(10, record.approvalRequestId());
					statement.setString(11, record.approvalGrantedBy());
					statement.setLong(12, record.duration().toNanos() / 1000);
					statement.setString(13, record.argumentsDigest());
					statement.setString(14, record.arguments());
					if (record.resultSize() != null) {
						statement.setLong(15, record.resultSize());
					}
					else {
						statement.setNull(15, Types.BIGINT);
					}
					statement.setString(16, clientRequests(record.clientRequests()));
				});
	}

	@Override
	public List<AuditRecord> find(AuditQuery query) {
		StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM agent_audit_record WHERE 1 = 1");
		List<Object> parameters = new ArrayList<>();
		if (query.tool() != null) {
			sql.append(" AND tool = ?");
			parameters.add(query.tool());
		}
		if (query.principal() != null) {
			sql.append(" AND principal = ?");
			parameters.add(query.principal());
		}
		if (query.outcome() != null) {
			sql.append(" AND outcome = ?");
			parameters.add(query.outcome().name());
		}
		if (query.from() != null) {
			sql.append(" AND recorded_at >= ?");
			parameters.add(Timestamp.from(query.from()));
		}
		if (query.to() != null) {
			sql.append(" AND recorded_at < ?");
			parameters.add(Timestamp.from(query.to()));
		}
		sql.append(" ORDER BY recorded_at DESC, id DESC LIMIT ? OFFSET ?");
		parameters.add(query.size());
		parameters.add(query.offset());
		return this.jdbc.query(sql.toString(), (row, number) -> record(row), parameters.toArray());
	}

	@Override
	public int purgeBefore(Instant cutoff) {
		return this.jdbc.update("DELETE FROM agent_audit_record WHERE recorded_at < ?", Timestamp.from(cutoff));
	}

	private static AuditRecord record(ResultSet row) throws SQLException {
		long resultSize = row.getLong("result_size");
		Long size = row.wasNull() ? null : resultSize;
		return new AuditRecord(row.getTimestamp("recorded_at").toInstant(), row.getString("call_id"),
				row.getString("tool"), InvocationSource.valueOf(row.getString("source")), row.getString("principal"),
				row.getString("session_fingerprint"), row.getString("trace_id"),
				CallOutcome.valueOf(row.getString("outcome")), row.getString("decided_by"),
				row.getString("approval_request_id"), row.getString("approval_granted_by"),
				Duration.of(row.getLong("duration_micros"), ChronoUnit.MICROS), row.getString("arguments_digest"),
				row.getString("arguments"), size, clientRequests(row.getString("client_requests")));
	}

	// The requests of a call as kind:outcome:duration_micros, comma-separated; null when
	// it made none.
	static @Nullable String clientRequests(List<ClientRequest> requests) {
		if (requests.isEmpty()) {
			return null;
		}
		StringJoiner joined = new StringJoiner(",");
		for (ClientRequest request : requests) {
			joined.add(request.kind().tagValue() + ":" + request.outcome().tagValue() + ":"
					+ request.duration().toNanos() / 1000);
		}
		return joined.toString();
	}

	static List<ClientRequest> clientRequests(@Nullable String column) {
		if (column == null || column.isEmpty()) {
			return List.of();
		}
		List<ClientRequest> requests = new ArrayList<>();
		for (String request : column.split(",")) {
			String[] parts = request.split(":");
			requests.add(new ClientRequest(ClientRequest.Kind.valueOf(parts[0].toUpperCase(Locale.ROOT)),
					ClientRequest.Outcome.valueOf(parts[1].toUpperCase(Locale.ROOT)),
					Duration.of(Long.parseLong(parts[2]), ChronoUnit.MICROS)));
		}
		return requests;
	}

}
