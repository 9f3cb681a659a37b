package dev.agentmiddleware.autoconfigure.redis;

import dev.agentmiddleware.ratelimit.Bucket4jToolLimiters;
import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * Counts permits in Redis with Bucket4j's Lettuce backend, so that every instance on the
 * same Redis shares each limit: a limit of 5 per minute allows 5 calls per minute across
 * the cluster. Buckets are the same as the {@link Bucket4jJdbcRateLimiterStore PostgreSQL
 * store}'s (one per limit, {@code limitForPeriod} tokens refilled all at once every
 * {@code limitRefreshPeriod}); each is one Redis key,
 * {@value #KEY_PREFIX}{@code <tool>|<kind>|<hash>}, updated by compare-and-swap in a Lua
 * script, so concurrent calls on any instance are counted exactly. Session ids and
 * principals are not stored, only their SHA-256 hash. A key expires (Redis {@code PX})
 * once its bucket would have refilled completely, plus ten seconds, so Redis needs no
 * clean-up.
 *
 * <p>
 * The store opens its own connection from the given client when a permit is first asked
 * for, and Lettuce reconnects it after a failure. A permit that Redis does not answer
 * within the timeout, or that is asked for while the connection is down (at once, without
 * queueing a command), throws {@link RateLimiterStore.RateLimiterUnavailableException};
 * the middleware then fails closed or open as configured. Works with a standalone
 * {@link RedisClient} and with a {@link RedisClusterClient}. <pre>{@code
 * RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
 * Bucket4jRedisRateLimiterStore store = new Bucket4jRedisRateLimiterStore(client, Duration.ofSeconds(2));
 * RateLimitMiddleware rateLimit = RateLimitMiddleware.builder().policies(policies).store(store).build();
 * }</pre>
 */
public final class Bucket4jRedisRateLimiterStore implements RateLimiterStore, AutoCloseable {

	/** What every key of the store starts with. */
	public static final String KEY_PREFIX = "agent-rate-limit:";

	private static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

	private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

	private final AbstractRedisClient client;

	private final Duration timeout;

	private final Bucket4jToolLimiters limiters;

	private volatile @Nullable StatefulConnection<String, byte[]> connection;

	private volatile @Nullable ProxyManager<String> buckets;

	private boolean closed;

	/**
	 * Creates the store; it connects when a permit is first asked for.
	 * @param client a {@link RedisClient} or {@link RedisClusterClient}, which the caller
	 * keeps and shuts down
	 * @param timeout how long a permit waits for Redis before it fails as unavailable;
	 * positive
	 */
	public Bucket4jRedisRateLimiterStore(AbstractRedisClient client, Duration timeout) {
		this.client = Objects.requireNonNull(client, "client");
		if (!(client instanceof RedisClient) && !(client instanceof RedisClusterClient)) {
			throw new IllegalArgumentException(
					"client must be a RedisClient or a RedisClusterClient, was " + client.getClass().getName());
		}
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		this.timeout = timeout;
		// Bucket4j's Lettuce backend is compare-and-swap: the concurrent permits of one
		// bucket go as one command
		this.limiters = new Bucket4jToolLimiters(this::buckets, KEY_PREFIX, "Redis", true);
	}

	@Override
	public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
		return this.limiters.limiter(toolName, policy);
	}

	private ProxyManager<String> buckets() {
		ProxyManager<String> open = this.buckets;
		if (open == null) {
			return connect();
		}
		StatefulConnection<String, byte[]> connected = this.connection;
		if (connected != null && !connected.isOpen()) {
			// Lettuce is reconnecting: fail at once instead of queueing commands that
			// would wait out the timeout
			throw new RateLimiterUnavailableException("the Redis rate-limit store is not connected (reconnecting)",
					new IllegalStateException("Redis connection closed"));
		}
		return open;
	}

	// Connects on first use, and again after a failed attempt: a Redis that is down at
	// startup only rejects the
	// limited calls (fail closed) until it is back. Once open, Lettuce reconnects the
	// connection by itself.
	private synchronized ProxyManager<String> connect() {
		if (this.closed) {
			throw new IllegalStateException("the Redis rate-limit store is closed");
		}
		ProxyManager<String> open = this.buckets;
		if (open != null) {
			return open;
		}
		StatefulConnection<String, byte[]> connected;
		Bucket4jLettuce.LettuceBasedProxyManagerBuilder<String> builder;
		if (this.client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<String, byte[]> clusterConnection = cluster.connect(CODEC);
			connected = clusterConnection;
			builder = Bucket4jLettuce.casBasedBuilder(clusterConnection);
		}
		else {
			StatefulRedisConnection<String, byte[]> standalone = ((RedisClient) this.client).connect(CODEC);
			connected = standalone;
			builder = Bucket4jLettuce.casBasedBuilder(standalone);
		}
		connected.setTimeout(this.timeout);
		this.connection = connected;
		open = builder.requestTimeout(this.timeout)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL))
			.build();
		this.buckets = open;
		return open;
	}

	@Override
	public String description() {
		return "Redis (Bucket4j, keys " + KEY_PREFIX + "*)";
	}

	/**
	 * Closes the store's connection (not the client).
	 */
	@Override
	public synchronized void close() {
		this.closed = true;
		StatefulConnection<String, byte[]> open = this.connection;
		this.connection = null;
		this.buckets = null;
		if (open != null) {
			open.close();
		}
	}

	@Override
	public String toString() {
		return "Bucket4jRedisRateLimiterStore[keys=" + KEY_PREFIX + "*, timeout=" + this.timeout + "]";
	}

}
