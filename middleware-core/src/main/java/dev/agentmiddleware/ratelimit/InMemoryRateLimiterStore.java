package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import org.jspecify.annotations.Nullable;

/**
 * Counts permits in this JVM's memory with Resilience4j's {@code AtomicRateLimiter}: one
 * per tool, or one per tool and session or principal. Each instance of a cluster counts
 * on its own, so a limit of 5 allows 5 calls per instance. The default store of
 * {@link RateLimitMiddleware}.
 *
 * <p>
 * Limiters per session or principal are created on first use and dropped once idle for a
 * full refresh period plus the maximum wait (a dropped limiter would have refilled
 * completely, so nothing is lost); each tool keeps at most {@code maxTrackedKeys} of
 * them, beyond that the least used are dropped. <pre>{@code
 * RateLimiterStore store = InMemoryRateLimiterStore.create(Ticker.systemTicker(), 10_000);
 * }</pre>
 */
public final class InMemoryRateLimiterStore implements RateLimiterStore {

	private final Ticker ticker;

	private final int maxTrackedKeys;

	private InMemoryRateLimiterStore(Ticker ticker, int maxTrackedKeys) {
		this.ticker = Objects.requireNonNull(ticker, "ticker");
		if (maxTrackedKeys < 1) {
			throw new IllegalArgumentException("maxTrackedKeys must be at least 1, was " + maxTrackedKeys);
		}
		this.maxTrackedKeys = maxTrackedKeys;
	}

	/**
	 * Creates a store.
	 * @param ticker the time source of the limiters and of their eviction, in nanoseconds
	 * @param maxTrackedKeys how many limiters per session or principal each tool keeps at
	 * most, at least 1
	 * @return the store
	 */
	public static InMemoryRateLimiterStore create(Ticker ticker, int maxTrackedKeys) {
		return new InMemoryRateLimiterStore(ticker, maxTrackedKeys);
	}

	@Override
	public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
		return new MemoryToolLimiter(toolName, policy, this.ticker, this.maxTrackedKeys);
	}

	@Override
	public String description() {
		return "memory (per instance)";
	}

	@Override
	public String toString() {
		return "InMemoryRateLimiterStore[maxTrackedKeys=" + this.maxTrackedKeys + "]";
	}

	/**
	 * The limiters of one tool. Package-private so that tests can see what it keeps in
	 * memory.
	 */
	static final class MemoryToolLimiter implements ToolLimiter {

		private final @Nullable AtomicRateLimiter toolLimiter;

		private final @Nullable Cache<String, AtomicRateLimiter> keyedLimiters;

		private final Function<String, AtomicRateLimiter> newLimiter;

		MemoryToolLimiter(String toolName, RateLimitPolicy policy, Ticker ticker, int maxTrackedKeys) {
			RateLimiterConfig config = RateLimiterConfig.custom()
				.limitForPeriod(policy.limitForPeriod())
				.limitRefreshPeriod(policy.limitRefreshPeriod())
				.timeoutDuration(policy.maxWait())
				.build();
			this.newLimiter = (key) -> new AtomicRateLimiter(toolName, config, Map.of(), ticker::read);
			if (policy.key() == RateLimitKey.TOOL) {
				this.toolLimiter = this.newLimiter.apply(toolName);
				this.keyedLimiters = null;
			}
			else {
				this.toolLimiter = null;
				// Idle for a whole period plus the longest reservation, a limiter has
				// refilled completely:
				// dropping it then loses nothing.
				this.keyedLimiters = Caffeine.newBuilder()
					.ticker(ticker)
					.executor(Runnable::run)
					.expireAfterAccess(policy.limitRefreshPeriod().plus(policy.maxWait()))
					.maximumSize(maxTrackedKeys)
					.build();
			}
		}

		@Override
		public RateLimitDecision acquire(String key) {
			AtomicRateLimiter limiter = limiter(key);
			long nanosToWait = limiter.reservePermission();
			if (nanosToWait < 0) {
				return RateLimitDecision.rejected(retryAfter(limiter));
			}
			return RateLimitDecision.granted(Duration.ofNanos(nanosToWait));
		}

		private AtomicRateLimiter limiter(String key) {
			AtomicRateLimiter toolLimiter = this.toolLimiter;
			if (toolLimiter != null) {
				return toolLimiter;
			}
			return Objects.requireNonNull(this.keyedLimiters).get(key, this.newLimiter);
		}

		private static Duration retryAfter(AtomicRateLimiter limiter) {
			long nanos = limiter.getDetailedMetrics().getNanosToWait();
			long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
			return Duration.ofMillis(millis);
		}

		long trackedLimiters() {
			Cache<String, AtomicRateLimiter> limiters = this.keyedLimiters;
			if (limiters == null) {
				return 1;
			}
			limiters.cleanUp();
			return limiters.estimatedSize();
		}

	}

}
