package dev.agentmiddleware.ratelimit;

import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;

import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;

import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import org.jspecify.annotations.Nullable;

/**
 * Limits how often a tool runs, with a limiter per tool, per tool and session, or per
 * tool and principal, plus an optional budget of calls per session and an optional cap on
 * how many calls of one session run at once. The limiters live in a
 * {@link RateLimiterStore}: by default Resilience4j's {@code RateLimiter} in memory
 * ({@link InMemoryRateLimiterStore}), or a store shared by several instances.
 *
 * <p>
 * Applies only to the tools its policy function gives a {@link RateLimitPolicy} for; for
 * the others {@link #wrap} returns {@code next} and the middleware costs nothing. A call
 * over the limit, or over its session's budget, does not run the tool: it fails with a
 * {@link ToolRateLimitedException} that names the tool and the limit and says roughly
 * when a permit frees up, and {@link MiddlewareEvent#RATE_LIMIT_REJECTED} is counted. A
 * policy with a {@link RateLimitPolicy#maxWait() maximum wait} lets a call wait that long
 * for a permit instead. A call of a session that already has
 * {@link RateLimitPolicy#maxConcurrentCalls() maxConcurrentCalls} calls of the tool
 * running is rejected the same way, at once
 * ({@code Tool 'search' is rate limited (3 calls of this session already
 * running)}); calls without a session share one such cap per tool. The running call's
 * slot is given back when it ends, however it ends (result, failure, timeout,
 * interruption).
 *
 * <p>
 * <b>Memory:</b> in the default store, limiters per session or principal are created on
 * first use and dropped once idle for a full refresh period plus the maximum wait (a
 * dropped limiter would have refilled completely, so nothing is lost). Session budgets
 * are dropped once the session has made no call for the session idle timeout (default one
 * hour): a budget is never refilled while its session is active. Each tool keeps at most
 * {@code maxTrackedKeys} limiters and budgets; beyond that the least used are dropped. A
 * rejected call counts against neither the rate limit nor the budget. Budgets always stay
 * in this middleware's memory, whatever the store, and so do the counts of running calls,
 * which exist only while a session has a call running (the count is removed when it drops
 * to zero).
 *
 * <p>
 * <b>Store unavailable:</b> when the store throws {@link RateLimiterUnavailableException}
 * (a shared store whose database is unreachable), the call is rejected with the limit
 * {@value RateLimiterUnavailableException#LIMIT_TEXT} (fail closed), or runs unlimited
 * when the builder says {@link Builder#allowWhenStoreUnavailable(boolean) allow}; either
 * way a WARN is logged (once per tool, then at most every 30 seconds while the store
 * stays unavailable). <pre>{@code
 * RateLimitMiddleware rateLimit = RateLimitMiddleware.builder()
 *     .policies((tool) -> tool.name().equals("search")
 *         ? RateLimitPolicy.of(5, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION)
 *         : null)
 *     .metrics(metrics)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(searchTool, rateLimit);
 * }</pre>
 */
public final class RateLimitMiddleware extends BuiltInMiddleware<RateLimitPolicy> {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "rate-limit";

	private final int maxTrackedKeys;

	private final Duration sessionIdleTimeout;

	private final RateLimiterStore store;

	private final boolean allowWhenStoreUnavailable;

	private RateLimitMiddleware(Builder builder) {
		super(NAME, builder);
		this.maxTrackedKeys = builder.maxTrackedKeys;
		this.sessionIdleTimeout = builder.sessionIdleTimeout;
		RateLimiterStore store = builder.store;
		this.store = (store != null) ? store : InMemoryRateLimiterStore.create(ticker(), builder.maxTrackedKeys);
		this.allowWhenStoreUnavailable = builder.allowWhenStoreUnavailable;
	}

	/**
	 * Starts a rate-limit middleware with order {@link BuiltInOrder#RATE_LIMIT}; its
	 * {@link Builder#policies policies} must be set, since no tool has a limit of its
	 * own. <pre>{@code
	 * RateLimitMiddleware limits = RateLimitMiddleware.builder()
	 *     .policies((tool) -> RateLimitPolicy.of(60, Duration.ofMinutes(1)))
	 *     .build();
	 * }</pre>
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, RateLimitPolicy policy, ToolHandler next) {
		return new RateLimitedHandler(tool.name(), policy, next, this.store, metrics(), ticker(),
				this.sessionIdleTimeout, this.maxTrackedKeys, this.allowWhenStoreUnavailable);
	}

	/**
	 * Where this middleware counts permits.
	 * @return the store
	 */
	public RateLimiterStore store() {
		return this.store;
	}

	/**
	 * Builds a {@link RateLimitMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<RateLimitPolicy, Builder> {

		private int maxTrackedKeys = 10_000;

		private Duration sessionIdleTimeout = Duration.ofHours(1);

		private @Nullable RateLimiterStore store;

		private boolean allowWhenStoreUnavailable;

		private Builder() {
			super(null, BuiltInOrder.RATE_LIMIT);
		}

		/**
		 * Sets how many limiters per session or principal, and how many session budgets,
		 * each tool keeps at most (default 10,000); beyond that the least used are
		 * dropped.
		 * @param maxTrackedKeys the maximum, at least 1
		 * @return this builder
		 */
		public Builder maxTrackedKeys(int maxTrackedKeys) {
			if (maxTrackedKeys < 1) {
				throw new IllegalArgumentException("maxTrackedKeys must be at least 1, was " + maxTrackedKeys);
			}
			this.maxTrackedKeys = maxTrackedKeys;
			return this;
		}

		/**
		 * Sets how long a session may make no call before its budgets are forgotten
		 * (default one hour).
		 * @param sessionIdleTimeout the idle time, positive
		 * @return this builder
		 */
		public Builder sessionIdleTimeout(Duration sessionIdleTimeout) {
			Objects.requireNonNull(sessionIdleTimeout, "sessionIdleTimeout");
			if (sessionIdleTimeout.isNegative() || sessionIdleTimeout.isZero()) {
				throw new IllegalArgumentException("sessionIdleTimeout must be positive, was " + sessionIdleTimeout);
			}
			this.sessionIdleTimeout = sessionIdleTimeout;
			return this;
		}

		/**
		 * Sets where permits are counted (default an {@link InMemoryRateLimiterStore}
		 * with this builder's ticker and {@code maxTrackedKeys}); pass a shared store so
		 * that several instances count against one limit. Session budgets stay in this
		 * middleware's memory either way.
		 * @param store the store
		 * @return this builder
		 */
		public Builder store(RateLimiterStore store) {
			this.store = Objects.requireNonNull(store, "store");
			return this;
		}

		/**
		 * Sets what happens to a call when the store cannot count permits (it throws
		 * {@link RateLimiterUnavailableException}): by default the call is rejected as
		 * rate limited with the limit text
		 * {@value RateLimiterUnavailableException#LIMIT_TEXT} (fail closed); {@code true}
		 * lets it run unlimited (fail open). Either way a WARN is logged.
		 * @param allow whether to run calls while the store is unavailable
		 * @return this builder
		 */
		public Builder allowWhenStoreUnavailable(boolean allow) {
			this.allowWhenStoreUnavailable = allow;
			return this;
		}

		@Override
		public RateLimitMiddleware build() {
			return new RateLimitMiddleware(this);
		}

	}

}
