package dev.agentmiddleware.ratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import dev.agentmiddleware.ratelimit.RateLimiterStore.ToolLimiter;
import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TokensInheritanceStrategy;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.proxy.BucketNotFoundException;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.util.concurrent.batch.BatchHelper.BatchFailedException;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ToolLimiter}s of a Bucket4j {@link ProxyManager}, the same for every backend
 * (PostgreSQL, Redis): each limit is one bucket of {@code limitForPeriod} tokens refilled
 * all at once every {@code limitRefreshPeriod} (Bucket4j's {@code refillIntervally}, the
 * semantics of Resilience4j's limiter), whose id is the tool name, the key kind and a
 * SHA-256 hash of the session id or principal (never the value). A changed limit replaces
 * the configuration of existing buckets instead of being ignored. Any failure of the
 * backend is a {@link RateLimiterUnavailableException} naming the store and the tool.
 */
public final class Bucket4jToolLimiters {

	// With batching: the most bucket proxies a limiter keeps (one per session or
	// principal at most), and how long an unused one is kept
	private static final int MAX_PROXIES = 10_000;

	private static final Duration PROXY_IDLE_TIME = Duration.ofMinutes(10);

	private final Supplier<ProxyManager<String>> buckets;

	private final String idPrefix;

	private final String storeName;

	private final boolean batching;

	/**
	 * Creates the limiters of a backend.
	 * @param buckets the backend's proxy manager, asked for on every permit (it may
	 * connect lazily and throw)
	 * @param idPrefix what every bucket id starts with, such as {@code agent-rate-limit:}
	 * @param storeName the store in error messages, such as {@code PostgreSQL}
	 */
	public Bucket4jToolLimiters(Supplier<ProxyManager<String>> buckets, String idPrefix, String storeName) {
		this(buckets, idPrefix, storeName, false);
	}

	/**
	 * Creates the limiters of a backend, batching the permits of one bucket if asked:
	 * each bucket then has one proxy (kept for 10,000 buckets a limit at most, and ten
	 * minutes unused) built with Bucket4j's batching, so the permits this instance asks
	 * of one bucket at the same time travel to the backend as one command. A
	 * compare-and-swap backend (Redis) then stops retrying its concurrent callers' writes
	 * again and again, and a lock-based one (PostgreSQL) takes one row lock, in one
	 * transaction, for them all instead of one after the other.
	 * @param buckets the backend's proxy manager, asked for on every permit (it may
	 * connect lazily and throw)
	 * @param idPrefix what every bucket id starts with, such as {@code agent-rate-limit:}
	 * @param storeName the store in error messages, such as {@code Redis}
	 * @param batching whether the permits of one bucket are batched
	 */
	public Bucket4jToolLimiters(Supplier<ProxyManager<String>> buckets, String idPrefix, String storeName,
			boolean batching) {
		this.buckets = buckets;
		this.idPrefix = idPrefix;
		this.storeName = storeName;
		this.batching = batching;
	}

	public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
		BucketConfiguration configuration = BucketConfiguration.builder()
			.addLimit(BandwidthBuilder.builder()
				.capacity(policy.limitForPeriod())
				.refillIntervally(policy.limitForPeriod(), policy.limitRefreshPeriod())
				.build())
			.build();
		long version = Math.abs(31L * policy.limitForPeriod() + policy.limitRefreshPeriod().toNanos());
		String prefix = this.idPrefix + toolName + "|" + policy.key().name() + "|";
		long maxWaitNanos = policy.maxWait().toNanos();
		boolean perTool = policy.key() == RateLimitKey.TOOL;
		@Nullable Cache<String, BucketProxy> proxies = this.batching
				? Caffeine.newBuilder().maximumSize(MAX_PROXIES).expireAfterAccess(PROXY_IDLE_TIME).build() : null;
		return (key) -> {
			try {
				ProxyManager<String> manager = this.buckets.get();
				String id = prefix + (perTool ? "" : hash(key));
				if (proxies == null) {
					return acquire(unbatched(manager, id, version, configuration), maxWaitNanos);
				}
				// The store's proxy manager is the same for its whole life once connected
				BucketProxy bucket = proxies.get(id, (bucketId) -> batching(manager, bucketId, version, configuration));
				try {
					return acquire(bucket, maxWaitNanos);
				}
				catch (BatchFailedException ex) {
					if (!(ex.getCause() instanceof BucketNotFoundException)) {
						throw ex;
					}
					// A lock-based backend (PostgreSQL) answers a batch of several
					// commands on a bucket without state (new, or deleted once
					// expired) with one "bucket not found" for the whole batch after
					// a rollback, where a compare-and-swap one (Redis) answers each
					// command; Bucket4j's batching cannot split that answer and fails
					// every permit of the batch. Nothing was consumed: each asks again
					// on its own, which creates the bucket.
					return acquire(unbatched(manager, id, version, configuration), maxWaitNanos);
				}
			}
			catch (RateLimiterUnavailableException ex) {
				throw ex;
			}
			catch (RuntimeException ex) {
				throw new RateLimiterUnavailableException(
						"the " + this.storeName + " rate-limit store failed for tool '" + toolName + "': "
								+ ex.getClass().getSimpleName() + ": " + rootMessage(ex),
						ex);
			}
		};
	}

	private static RateLimitDecision acquire(BucketProxy bucket, long maxWaitNanos) throws InterruptedException {
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
		if (probe.isConsumed()) {
			return RateLimitDecision.granted(Duration.ZERO);
		}
		if (maxWaitNanos > 0 && probe.getNanosToWaitForRefill() <= maxWaitNanos
				&& bucket.asBlocking().tryConsume(1, maxWaitNanos)) {
			return RateLimitDecision.granted(Duration.ZERO);
		}
		return RateLimitDecision.rejected(retryAfter(probe.getNanosToWaitForRefill()));
	}

	private static Duration retryAfter(long nanos) {
		return Duration.ofMillis(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return String.valueOf(root.getMessage());
	}

	private static BucketProxy unbatched(ProxyManager<String> manager, String id, long version,
			BucketConfiguration configuration) {
		return manager.builder()
			.withImplicitConfigurationReplacement(version, TokensInheritanceStrategy.RESET)
			.build(id, () -> configuration);
	}

	private static BucketProxy batching(ProxyManager<String> manager, String id, long version,
			BucketConfiguration configuration) {
		return manager.builder()
			.withImplicitConfigurationReplacement(version, TokensInheritanceStrategy.RESET)
			.withOptimization(Optimizations.batching())
			.build(id, () -> configuration);
	}

	private static String hash(String key) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

}
