package dev.agentmiddleware.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import javax.sql.DataSource;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.util.ClassUtils;

/**
 * An {@link ApprovalStore} in the application's database (H2 or PostgreSQL), through
 * Spring's {@link JdbcClient}, so that several application instances share pending
 * requests, decisions, grants and the audit trail: a decision posted to one instance
 * releases the call waiting on another.
 *
 * <p>
 * A waiting call polls its request every {@code pollInterval}; on PostgreSQL a decision
 * also sends a {@code NOTIFY} on channel {@value #CHANNEL}, which wakes the waiting calls
 * of every instance at once (polling stays as the fallback). A waiting call refreshes its
 * request's heartbeat as it polls; a pending request whose heartbeat is older than
 * {@code abandonAfter} (its caller is gone, say after a restart) is marked abandoned and
 * can no longer be approved. With a stable instance id, the requests an instance owned
 * are marked abandoned as soon as it starts again. Thread-safe. <pre>{@code
 * JdbcApprovalStore store = new JdbcApprovalStore(dataSource, Clock.systemUTC(), Duration.ofMillis(500),
 *         Duration.ofSeconds(30), "instance-a");
 * store.initializeSchema();
 * store.start();
 * }</pre>
 */
public final class JdbcApprovalStore extends JdbcApprovalRecords implements AutoCloseable {

	/** The PostgreSQL notification channel decisions are announced on. */
	public static final String CHANNEL = "agent_approval";

	private static final Logger logger = LoggerFactory.getLogger(JdbcApprovalStore.class);

	private static final String PENDING = "PENDING";

	private static final int MAX_REASON = 1000;

	private static final String REQUEST_COLUMNS = "id, tool_name, safety, arguments, arguments_hash, session_id, "
			+ "principal, summary, created_at, expires_at";

	private final DataSource dataSource;

	private final Clock clock;

	private final Duration pollInterval;

	private final Duration abandonAfter;

	private final String instanceId;

	private final boolean postgres;

	// Waiting calls wake at least this often: to poll, and to beat their heartbeat well
	// within abandonAfter.
	private final long maxWaitMillis;

	private final Object signal = new Object();

	private long signals;

	private @Nullable AutoCloseable notifications;

	/**
	 * Creates the store.
	 * @param dataSource the database
	 * @param clock the clock for heartbeats and abandonment
	 * @param pollInterval how often a waiting call checks for a decision
	 * @param abandonAfter how long a pending request may go without a heartbeat
	 * @param instanceId this application instance's id
	 */
	public JdbcApprovalStore(DataSource dataSource, Clock clock, Duration pollInterval, Duration abandonAfter,
			String instanceId) {
		super(JdbcClient.create(Objects.requireNonNull(dataSource, "dataSource")));
		this.dataSource = dataSource;
		this.clock = Objects.requireNonNull(clock, "clock");
		this.pollInterval = positive("pollInterval", pollInterval);
		this.abandonAfter = positive("abandonAfter", abandonAfter);
		this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
		this.postgres = "postgresql".equals(databaseName(dataSource));
		this.maxWaitMillis = Math.max(1, Math.min(this.pollInterval.toMillis(), this.abandonAfter.toMillis() / 3));
	}

	/**
	 * Creates the tables when they are missing, with the script for this database
	 * ({@code schema-postgresql.sql} or {@code schema-h2.sql} next to this class), then
	 * the one every database shares ({@code schema-records.sql}).
	 */
	public void initializeSchema() {
		String script = this.postgres ? "approval/schema-postgresql.sql" : "approval/schema-h2.sql";
		new ResourceDatabasePopulator(new ClassPathResource(script, JdbcApprovalStore.class),
				new ClassPathResource("approval/schema-records.sql", JdbcApprovalStore.class))
			.execute(this.dataSource);
	}

	/**
	 * Marks the requests this instance owned before a restart as abandoned, and on
	 * PostgreSQL starts listening for decisions.
	 */
	public void start() {
		Instant now = this.clock.instant();
		List<String> owned = this.jdbc.sql("SELECT id FROM agent_approval_request WHERE status = ? AND owner_id = ?")
			.params(PENDING, this.instanceId)
			.query(String.class)
			.list();
		owned.forEach((id) -> abandon(id, now));
		sweepAbandoned(now);
		if (this.postgres && ClassUtils.isPresent("org.postgresql.PGConnection", getClass().getClassLoader())) {
			this.notifications = PostgresNotifications.listen(this.dataSource, CHANNEL, this::wake);
		}
	}

	@Override
	public void close() throws Exception {
		AutoCloseable notifications = this.notifications;
		if (notifications != null) {
			notifications.close();
		}
	}

	/**
	 * Whether this store announces decisions with PostgreSQL's {@code NOTIFY}.
	 * @return {@code true} on PostgreSQL
	 */
	public boolean isPostgres() {
		return this.postgres;
	}

	@Override
	public void add(ApprovalRequest request) {
		this.jdbc
			.sql("INSERT INTO agent_approval_request (" + REQUEST_COLUMNS
					+ ", status, owner_id, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(request.id(), request.toolName(), request.safety().name(), request.arguments(),
					request.argumentsHash(), request.sessionId(), request.principal(), request.summary(),
					millis(request.createdAt()), millis(request.expiresAt()), PENDING, this.instanceId,
					millis(this.clock.instant()))
			.update();
	}

	@Override
	public List<ApprovalRequest> pending(Instant now) {
		sweepAbandoned(now);
		return this.jdbc
			.sql("SELECT " + REQUEST_COLUMNS + " FROM agent_approval_request WHERE status = ? AND expires_at > ? "
					+ "ORDER BY created_at, id")
			.params(PENDING, millis(now))
			.query(JdbcApprovalStore::request)
			.list();
	}

	@Override
	public Optional<ApprovalRequest> find(String id) {
		return this.jdbc.sql("SELECT " + REQUEST_COLUMNS + " FROM agent_approval_request WHERE id = ?")
			.param(id)
			.query(JdbcApprovalStore::request)
			.optional();
	}

	@Override
	public DecideResult decide(String id, ApprovalDecision decision, Instant now) {
		sweepAbandoned(now);
		int updated = this.jdbc
			.sql("UPDATE agent_approval_request SET status = ?, decided_by = ?, reason = ?, changed_arguments = ?, "
					+ "grant_scope = ?, decided_at = ? WHERE id = ? AND status = ? AND expires_at > ?")
			.params(decision.outcome().name(), decision.decidedBy(), truncated(decision.reason()),
					decision.changedArguments(), (decision.grantScope() != null) ? decision.grantScope().name() : null,
					millis(now), id, PENDING, millis(now))
			.update();
		if (updated == 1) {
			announce(id);
			return DecideResult.DECIDED;
		}
		Optional<String> status = this.jdbc.sql("SELECT status FROM agent_approval_request WHERE id = ?")
			.param(id)
			.query(String.class)
			.optional();
		if (status.isEmpty()) {
			return DecideResult.UNKNOWN;
		}
		return PENDING.equals(status.get()) ? DecideResult.EXPIRED : DecideResult.ALREADY_DECIDED;
	}

	@Override
	public Optional<ApprovalDecision> awaitDecision(String id, Instant deadline, Clock clock)
			throws InterruptedException {
		while (true) {
			long seen;
			synchronized (this.signal) {
				seen = this.signals;
			}
			Optional<ApprovalDecision> decision = decision(id);
			if (decision.isPresent()) {
				return decision;
			}
			Instant now = clock.instant();
			long remaining = Duration.between(now, deadline).toMillis();
			if (remaining <= 0) {
				return Optional.empty();
			}
			this.jdbc.sql("UPDATE agent_approval_request SET heartbeat_at = ? WHERE id = ? AND status = ?")
				.params(millis(this.clock.instant()), id, PENDING)
				.update();
			synchronized (this.signal) {
				if (this.signals == seen) {
					this.signal.wait(Math.max(1, Math.min(remaining, this.maxWaitMillis)));
				}
			}
		}
	}

	/**
	 * Keeps a pending request that no call waits for (between the rounds of an MCP
	 * {@code 2026-07-28} call) from being abandoned until {@code until}: its heartbeat is
	 * moved forward to {@code until - abandonAfter}, and no instance owns it any more, so
	 * a restart of the instance that served the last round does not abandon it either.
	 */
	@Override
	public void keepPending(String id, Instant until) {
		long beat = millis(until.minus(this.abandonAfter));
		this.jdbc
			.sql("UPDATE agent_approval_request SET heartbeat_at = ?, owner_id = ? "
					+ "WHERE id = ? AND status = ? AND heartbeat_at < ?")
			.params(beat, "", id, PENDING, beat)
			.update();
	}

	@Override
	public ApprovalDecision close(String id, ApprovalDecision fallback, Instant now) {
		int updated = this.jdbc
			.sql("UPDATE agent_approval_request SET status = ?, decided_by = ?, reason = ?, decided_at = ? "
					+ "WHERE id = ? AND status = ?")
			.params(fallback.outcome().name(), fallback.decidedBy(), truncated(fallback.reason()), millis(now), id,
					PENDING)
			.update();
		if (updated == 1) {
			return fallback;
		}
		return decision(id).orElse(fallback);
	}

	private Optional<ApprovalDecision> decision(String id) {
		return this.jdbc
			.sql("SELECT status, decided_by, reason, changed_arguments, grant_scope FROM agent_approval_request "
					+ "WHERE id = ?")
			.param(id)
			.query((rs, row) -> PENDING.equals(rs.getString(1)) ? Optional.<ApprovalDecision>empty()
					: Optional.of(decision(rs)))
			.optional()
			.flatMap((decision) -> decision);
	}

	private static ApprovalDecision decision(ResultSet rs) throws SQLException {
		String scope = rs.getString(5);
		return new ApprovalDecision(ApprovalOutcome.valueOf(rs.getString(1)), rs.getString(2), rs.getString(3),
				rs.getString(4), (scope != null) ? GrantScope.valueOf(scope) : null);
	}

	private void sweepAbandoned(Instant now) {
		List<String> stale = this.jdbc
			.sql("SELECT id FROM agent_approval_request WHERE status = ? AND heartbeat_at < ?")
			.params(PENDING, millis(now.minus(this.abandonAfter)))
			.query(String.class)
			.list();
		stale.forEach((id) -> abandon(id, now));
	}

	private void abandon(String id, Instant now) {
		ApprovalDecision abandoned = new ApprovalDecision(ApprovalOutcome.ABANDONED, ApprovalDecision.SYSTEM,
				"the waiting call is gone", null, null);
		if (close(id, abandoned, now) == abandoned) {
			find(id).ifPresent((request) -> audit(new ApprovalAuditRecord(id, request.toolName(),
					request.argumentsHash(), request.sessionId(), request.principal(), ApprovalDecision.SYSTEM,
					ApprovalOutcome.ABANDONED, abandoned.reason(), request.createdAt(), now)));
			logger.info("Approval {} of tool '{}' abandoned: its waiting call is gone", id,
					find(id).map(ApprovalRequest::toolName).orElse("?"));
			announce(id);
		}
	}

	private void announce(String id) {
		wake();
		if (this.postgres) {
			this.jdbc.sql("SELECT pg_notify(?, ?)").params(CHANNEL, id).query(String.class).optional();
		}
	}

	private void wake() {
		synchronized (this.signal) {
			this.signals++;
			this.signal.notifyAll();
		}
	}

	private static ApprovalRequest request(ResultSet rs, int row) throws SQLException {
		return new ApprovalRequest(rs.getString(1), rs.getString(2), SafetyLevel.valueOf(rs.getString(3)),
				rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
				Instant.ofEpochMilli(rs.getLong(9)), Instant.ofEpochMilli(rs.getLong(10)));
	}

	static long millis(Instant instant) {
		return instant.toEpochMilli();
	}

	static @Nullable String truncated(@Nullable String text) {
		return (text == null || text.length() <= MAX_REASON) ? text : text.substring(0, MAX_REASON - 1) + "…";
	}

	private static Duration positive(String name, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, was " + value);
		}
		return value;
	}

	private static String databaseName(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot connect to the approval store's database: " + ex.getMessage(), ex);
		}
	}

}
