package dev.agentmiddleware.autoconfigure.jdbc;

import dev.agentmiddleware.autoconfigure.cache.CacheInvalidationTransport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.cache.CacheInvalidation;
import dev.agentmiddleware.cache.ToolResultCache;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.util.ClassUtils;

/**
 * Sends the invalidations of this instance's {@link ToolResultCache} to the other
 * instances on the same database, and applies theirs: entries stay in each instance's
 * memory, only invalidations travel, as rows of table {@value #TABLE}. Every instance
 * polls the table every {@code pollInterval}; on PostgreSQL an invalidation also sends a
 * {@code NOTIFY} on channel {@value #CHANNEL}, which wakes every instance at once
 * (polling stays as the fallback, for H2 and while the listening connection is down).
 *
 * <p>
 * Rows are read by id, with a look-back of a few seconds so that an invalidation
 * committed after a later one is not missed, and applied once. Rows older than the
 * retention are deleted. A failure to send or to read is logged as a WARN and never fails
 * the tool call that invalidated: the local entries are gone either way. <pre>{@code
 * JdbcCacheInvalidations invalidations = new JdbcCacheInvalidations(dataSource, Duration.ofMillis(500));
 * invalidations.initializeSchema();
 * ToolResultCache results = ToolResultCache.builder().onInvalidation(invalidations::publish).build();
 * invalidations.start(results);
 * }</pre>
 */
public final class JdbcCacheInvalidations implements CacheInvalidationTransport, AutoCloseable {

	/** The table of the invalidations. */
	public static final String TABLE = "agent_cache_invalidation";

	/** The PostgreSQL channel that announces a new invalidation. */
	public static final String CHANNEL = "agent_cache_invalidation";

	private static final Logger logger = LoggerFactory.getLogger(JdbcCacheInvalidations.class);

	// An invalidation row whose id is below one already read is still looked for this
	// long (commit order).
	private static final long LOOK_BACK_NANOS = Duration.ofSeconds(5).toNanos();

	private static final Duration RETENTION = Duration.ofMinutes(5);

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

	private static final long CLEANUP_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

	private final DataSource dataSource;

	private final JdbcClient jdbc;

	private final Duration pollInterval;

	private final Clock clock;

	private final String origin = UUID.randomUUID().toString();

	private final boolean postgres;

	private final Object signal = new Object();

	private boolean signalled;

	private volatile boolean running;

	private volatile @Nullable Thread poller;

	private @Nullable AutoCloseable notifications;

	// Touched by the poller thread only.
	private long floor;

	private long maxSeen;

	private final Set<Long> applied = new HashSet<>();

	private final Deque<long[]> seenAt = new ArrayDeque<>();

	private long lastCleanup;

	private boolean failing;

	/**
	 * Creates the invalidations of one instance; its table must exist (see
	 * {@link #initializeSchema()}).
	 * @param dataSource the database every instance shares
	 * @param pollInterval how often to look for invalidations of the other instances
	 */
	public JdbcCacheInvalidations(DataSource dataSource, Duration pollInterval) {
		this(dataSource, pollInterval, Clock.systemUTC());
	}

	JdbcCacheInvalidations(DataSource dataSource, Duration pollInterval, Clock clock) {
		this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		this.jdbc = JdbcClient.create(dataSource);
		if (pollInterval.isNegative() || pollInterval.isZero()) {
			throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
		}
		this.pollInterval = pollInterval;
		this.clock = clock;
		this.postgres = databaseName(dataSource).contains("postgres");
	}

	/**
	 * Creates table {@value #TABLE} when it is missing ({@code schema-postgresql.sql} or
	 * {@code schema-h2.sql} next to this class).
	 */
	public void initializeSchema() {
		String script = this.postgres ? "cache/schema-postgresql.sql" : "cache/schema-h2.sql";
		new ResourceDatabasePopulator(new ClassPathResource(script, JdbcCacheInvalidations.class))
			.execute(this.dataSource);
	}

	/**
	 * Whether invalidations wake the other instances with PostgreSQL's {@code NOTIFY}
	 * (else they poll).
	 * @return {@code true} on PostgreSQL
	 */
	public boolean isPostgres() {
		return this.postgres;
	}

	@Override
	public String description() {
		return "table " + TABLE + " (" + (this.postgres ? "PostgreSQL LISTEN/NOTIFY, " : "") + "polling every "
				+ this.pollInterval + ")";
	}

	/**
	 * Sends an invalidation made on this instance to the others.
	 * @param invalidation the invalidation
	 */
	@Override
	public void publish(CacheInvalidation invalidation) {
		try {
			this.jdbc
				.sql("INSERT INTO " + TABLE + " (origin, tool_name, arguments_hash, created_at) VALUES (?, ?, ?, ?)")
				.params(this.origin, invalidation.toolName(), invalidation.argumentsHash(), this.clock.millis())
				.update();
			if (this.postgres) {
				this.jdbc.sql("SELECT pg_notify(?, '')").param(CHANNEL).query(String.class).optional();
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Cache invalidation of {} could not be sent to the other instances: {}",
					(invalidation.toolName() != null) ? "tool '" + invalidation.toolName() + "'" : "all tools",
					ex.getMessage());
		}
	}

	/**
	 * Starts applying the other instances' invalidations, made from now on, to a cache:
	 * polls on a daemon thread and, on PostgreSQL, listens for {@code NOTIFY}.
	 * @param cache this instance's cache
	 */
	@Override
	public synchronized void start(ToolResultCache cache) {
		if (this.running) {
			throw new IllegalStateException("Already started");
		}
		Long max = this.jdbc.sql("SELECT MAX(id) FROM " + TABLE).query(Long.class).optional().orElse(0L);
		this.floor = max;
		this.maxSeen = max;
		this.lastCleanup = System.nanoTime() - CLEANUP_EVERY_NANOS;
		this.running = true;
		Thread thread = new Thread(() -> run(cache), "agent-cache-invalidation");
		thread.setDaemon(true);
		thread.start();
		this.poller = thread;
		if (this.postgres && ClassUtils.isPresent("org.postgresql.PGConnection", getClass().getClassLoader())) {
			this.notifications = PostgresNotifications.listen(this.dataSource, CHANNEL, "cache invalidations",
					this::wake);
		}
	}

	private void wake() {
		synchronized (this.signal) {
			this.signalled = true;
			this.signal.notifyAll();
		}
	}

	private void run(ToolResultCache cache) {
		while (this.running) {
			try {
				awaitSignal();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			poll(cache);
		}
	}

	private void awaitSignal() throws InterruptedException {
		long deadline = System.nanoTime() + this.pollInterval.toNanos();
		synchronized (this.signal) {
			long left;
			while (!this.signalled && this.running && (left = deadline - System.nanoTime()) > 0) {
				this.signal.wait(Math.max(1, left / 1_000_000));
			}
			this.signalled = false;
		}
	}

	/**
	 * Reads and applies the invalidations of the other instances that this one has not
	 * applied yet. Package-private for tests; runs on the poller thread.
	 */
	void poll(ToolResultCache cache) {
		try {
			List<Row> rows = this.jdbc
				.sql("SELECT id, origin, tool_name, arguments_hash FROM " + TABLE + " WHERE id > ? ORDER BY id")
				.param(this.floor)
				.query((rs, n) -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)))
				.list();
			for (Row row : rows) {
				if (this.applied.add(row.id()) && !this.origin.equals(row.origin())) {
					cache.apply(new CacheInvalidation(row.toolName(), row.argumentsHash()));
				}
				this.maxSeen = Math.max(this.maxSeen, row.id());
			}
			advanceFloor();
			cleanUp();
			if (this.failing) {
				logger.info("Reading cache invalidations of the other instances works again");
				this.failing = false;
			}
		}
		catch (RuntimeException ex) {
			if (!this.failing) {
				logger.warn("Reading cache invalidations of the other instances failed ({}); retrying every {}",
						ex.getMessage(), this.pollInterval);
				this.failing = true;
			}
		}
	}

	private void advanceFloor() {
		long now = System.nanoTime();
		this.seenAt.addLast(new long[] { now, this.maxSeen });
		while (!this.seenAt.isEmpty() && now - this.seenAt.peekFirst()[0] >= LOOK_BACK_NANOS) {
			this.floor = Math.max(this.floor, this.seenAt.removeFirst()[1]);
		}
		long floor = this.floor;
		this.applied.removeIf((id) -> id <= floor);
	}

	private void cleanUp() {
		long now = System.nanoTime();
		if (now - this.lastCleanup < CLEANUP_EVERY_NANOS) {
			return;
		}
		this.lastCleanup = now;
		this.jdbc.sql("DELETE FROM " + TABLE + " WHERE created_at < ?")
			.param(this.clock.millis() - RETENTION.toMillis())
			.update();
	}

	@Override
	public void close() throws Exception {
		this.running = false;
		wake();
		Thread poller = this.poller;
		if (poller != null) {
			// Woken, not interrupted: an interrupt during a read closes an embedded
			// database's file channel (H2),
			// which would close that database for everything else in this JVM. The poller
			// ends after its poll.
			poller.join(CLOSE_TIMEOUT.toMillis());
		}
		AutoCloseable notifications = this.notifications;
		if (notifications != null) {
			notifications.close();
		}
	}

	private static String databaseName(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(
					"Cannot connect to the database that carries cache invalidations: " + ex.getMessage(), ex);
		}
	}

	private record Row(long id, String origin, @Nullable String toolName, @Nullable String argumentsHash) {
	}

}
