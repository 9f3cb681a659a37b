package dev.agentmiddleware.ratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

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
import io.github.bucket4j.distributed.proxy.ProxyManager;

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

	private final Supplier<ProxyManager<String>> buckets;

	private final String idPrefix;

	private final String storeName;

	/**
	 * Creates the limiters of a backend.
	 * @param buckets the backend's proxy manager, asked for on every permit (it may
	 * connect lazily and throw)
	 * @param idPrefix what every bucket id starts with, such as {@code agent-rate-limit:}
	 * @param storeName the store in error messages, such as {@code PostgreSQL}
	 */
	public Bucket4jToolLimiters(Supplier<ProxyManager<String>> buckets, String idPrefix, String storeName) {
		this.buckets = buckets;
		this.idPrefix = idPrefix;
		this.storeName = storeName;
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
		return (key) -> {
			try {
				BucketProxy bucket = this.buckets.get()
					.builder()
					.withImplicitConfigurationReplacement(version, TokensInheritanceStrategy.RESET)
					.build(prefix + (perTool ? "" : hash(key)), () -> configuration);
				return acquire(bucket, maxWaitNanos);
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
