package dev.agentmiddleware.autoconfigure.jdbc;

import dev.agentmiddleware.ratelimit.Bucket4jToolLimiters;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Counts permits in PostgreSQL with Bucket4j, so that every instance on the database
 * shares each limit: a limit of 5 per minute allows 5 calls per minute across the
 * cluster. Every limit (per tool, per tool and session, per tool and principal) is one
 * Bucket4j bucket, a row of table {@value #TABLE}, with one bandwidth of
 * {@code limitForPeriod} tokens refilled all at once every {@code limitRefreshPeriod}
 * (Bucket4j's {@code refillIntervally}, the semantics of Resilience4j's limiter). The
 * permits of a bucket are counted in a transaction that locks its row
 * ({@code SELECT ... FOR UPDATE}), so concurrent calls on any instance are counted
 * exactly; the permits that one instance asks of a bucket at the same time share one such
 * transaction (Bucket4j's batching).
 *
 * <p>
 * Session ids and principals are not stored: a bucket's id is the tool name, the key kind
 * and a SHA-256 hash of the session id or principal. A bucket left alone expires once it
 * would have refilled completely (plus ten seconds); a background thread deletes expired
 * rows every minute. When the database cannot be reached a permit throws
 * {@link RateLimiterStore.RateLimiterUnavailableException}; the middleware then fails
 * closed or open as configured. <pre>{@code
 * Bucket4jJdbcRateLimiterStore store = new Bucket4jJdbcRateLimiterStore(dataSource);
 * store.initializeSchema();
 * RateLimitMiddleware rateLimit = RateLimitMiddleware.builder().policies(policies).store(store).build();
 * }</pre>
 */
public final class Bucket4jJdbcRateLimiterStore implements RateLimiterStore, AutoCloseable {

	/** The table of the buckets. */
	public static final String TABLE = "agent_rate_limit_bucket";

	private static final Logger logger = LoggerFactory.getLogger(Bucket4jJdbcRateLimiterStore.class);

	private static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

	private static final int CLEANUP_BATCH = 1000;

	private final DataSource dataSource;

	private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;

	private final Bucket4jToolLimiters limiters;

	private final ScheduledExecutorService cleanup;

	/**
	 * Creates the store; its table must exist (see {@link #initializeSchema()}).
	 * @param dataSource a PostgreSQL database
	 */
	public Bucket4jJdbcRateLimiterStore(DataSource dataSource) {
		this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
			.primaryKeyMapper(PrimaryKeyMapper.STRING)
			.table(TABLE)
			.idColumn("id")
			.stateColumn("state")
			.expiresAtColumn("expires_at")
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL))
			.build();
		this.limiters = new Bucket4jToolLimiters(() -> this.buckets, "", "PostgreSQL", true);
		this.cleanup = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "agent-rate-limit-cleanup");
			thread.setDaemon(true);
			return thread;
		});
		this.cleanup.scheduleWithFixedDelay(this::removeExpired, 1, 1, TimeUnit.MINUTES);
	}

	/**
	 * Creates table {@value #TABLE} when it is missing ({@code schema-postgresql.sql}
	 * next to this class).
	 */
	public void initializeSchema() {
		new ResourceDatabasePopulator(
				new ClassPathResource("ratelimit/schema-postgresql.sql", Bucket4jJdbcRateLimiterStore.class))
			.execute(this.dataSource);
	}

	@Override
	public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
		return this.limiters.limiter(toolName, policy);
	}

	/**
	 * Deletes the buckets that have expired (they would have refilled completely), in
	 * batches.
	 * @return how many were deleted
	 */
	public int removeExpired() {
		int removed = 0;
		try {
			int batch;
			do {
				batch = this.buckets.removeExpired(CLEANUP_BATCH);
				removed += batch;
			}
			while (batch >= CLEANUP_BATCH);
		}
		catch (RuntimeException ex) {
			logger.debug("Removing expired rate-limit buckets failed: {}", ex.getMessage());
		}
		return removed;
	}

	@Override
	public String description() {
		return "PostgreSQL (Bucket4j, table " + TABLE + ")";
	}

	@Override
	public void close() {
		// Not shutdownNow: an interrupt during a statement can close an embedded
		// database's file channel
		this.cleanup.shutdown();
	}

	@Override
	public String toString() {
		return "Bucket4jJdbcRateLimiterStore[table=" + TABLE + "]";
	}

}
