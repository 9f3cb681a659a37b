package dev.agentmiddleware.ratelimit;

import java.time.Duration;

import java.util.Map;
import java.util.Objects;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolPolicies;
import dev.agentmiddleware.metrics.MiddlewareEvent;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import org.jspecify.annotations.Nullable;

/**
 * Limits how often a tool runs, with a Resilience4j {@code RateLimiter} per tool, per tool and session, or per tool
 * and principal, plus an optional budget of calls per session.
 *
 * <p>Applies only to the tools its policy function gives a {@link RateLimitPolicy} for; for the others
 * {@link #wrap} returns {@code next} and the middleware costs nothing. A call over the limit, or over its session's
 * budget, does not run the tool: it fails with a {@link ToolRateLimitedException} that names the tool and the limit
 * and says roughly when a permit frees up, and {@link MiddlewareEvent#RATE_LIMIT_REJECTED} is counted. A policy
 * with a {@link RateLimitPolicy#maxWait() maximum wait} lets a call wait that long for a permit instead.
 *
 * <p><b>Memory:</b> limiters per session or principal are created on first use and dropped once idle for a full
 * refresh period plus the maximum wait (a dropped limiter would have refilled completely, so nothing is lost).
 * Session budgets are dropped once the session has made no call for the session idle timeout (default one hour):
 * a budget is never refilled while its session is active. Each tool keeps at most {@code maxTrackedKeys} limiters
 * and budgets; beyond that the least used are dropped. A rejected call counts against neither the rate limit nor
 * the budget.
 * <pre>{@code
 * RateLimitMiddleware rateLimit = RateLimitMiddleware.builder()
 *     .policies((tool) -> tool.name().equals("search")
 *         ? RateLimitPolicy.of(5, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION)
 *         : null)
 *     .metrics(metrics)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(searchTool, rateLimit);
 * }</pre>
 */
public final class RateLimitMiddleware implements OrderedMiddleware {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "rate-limit";

	private final ToolPolicies<RateLimitPolicy> policies;

	private final int order;

	private final Ticker ticker;

	private final MiddlewareMetrics metrics;

	private final int maxTrackedKeys;

	private final Duration sessionIdleTimeout;

	private RateLimitMiddleware(Builder builder) {
		this.policies = ToolPolicies.of(Objects.requireNonNull(builder.policies,
				"policies: set which tools are limited with policies(fn)"));
		this.order = builder.order;
		this.ticker = builder.ticker;
		this.metrics = builder.metrics;
		this.maxTrackedKeys = builder.maxTrackedKeys;
		this.sessionIdleTimeout = builder.sessionIdleTimeout;
	}

	/**
	 * Starts a rate-limit middleware; its {@link Builder#policies policies} must be set, since no tool has a limit
	 * of its own.
	 * <pre>{@code
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
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		RateLimitPolicy policy = this.policies.resolve(tool);
		if (policy == null) {
			return next;
		}
		return new RateLimitedHandler(tool.name(), policy, next, this);
	}

	@Override
	public int order() {
		return this.order;
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * The policy of every tool this middleware limits, as decided when the tools' pipelines were built.
	 * @return the policies by tool name, sorted by name
	 */
	public Map<String, RateLimitPolicy> policies() {
		return this.policies.applied();
	}

	/**
	 * The handler of one limited tool. Package-private so that tests can see what it keeps in memory.
	 */
	static final class RateLimitedHandler implements ToolHandler {

		private static final Function<String, AtomicInteger> NEW_BUDGET = (session) -> new AtomicInteger();

		private final String toolName;

		private final ToolHandler next;

		private final MiddlewareMetrics metrics;

		private final RateLimitKey key;

		private final String limitText;

		private final @Nullable AtomicRateLimiter toolLimiter;

		private final @Nullable Cache<String, AtomicRateLimiter> keyedLimiters;

		private final Function<String, AtomicRateLimiter> newLimiter;

		private final int maxCallsPerSession;

		private final @Nullable Cache<String, AtomicInteger> budgets;

		private final @Nullable String budgetText;

		RateLimitedHandler(String toolName, RateLimitPolicy policy, ToolHandler next, RateLimitMiddleware owner) {
			this.toolName = toolName;
			this.next = next;
			this.metrics = owner.metrics;
			this.key = policy.key();
			this.limitText = policy.limitText();
			RateLimiterConfig config = RateLimiterConfig.custom()
				.limitForPeriod(policy.limitForPeriod())
				.limitRefreshPeriod(policy.limitRefreshPeriod())
				.timeoutDuration(policy.maxWait())
				.build();
			Ticker ticker = owner.ticker;
			this.newLimiter = (key) -> new AtomicRateLimiter(toolName, config, Map.of(), ticker::read);
			if (this.key == RateLimitKey.TOOL) {
				this.toolLimiter = this.newLimiter.apply(toolName);
				this.keyedLimiters = null;
			}
			else {
				this.toolLimiter = null;
				// Idle for a whole period plus the longest reservation, a limiter has refilled completely:
				// dropping it then loses nothing.
				this.keyedLimiters = Caffeine.newBuilder()
					.ticker(ticker)
					.executor(Runnable::run)
					.expireAfterAccess(policy.limitRefreshPeriod().plus(policy.maxWait()))
					.maximumSize(owner.maxTrackedKeys)
					.build();
			}
			Integer maxCalls = policy.maxCallsPerSession();
			this.maxCallsPerSession = (maxCalls != null) ? maxCalls : Integer.MAX_VALUE;
			this.budgets = (maxCalls == null) ? null
					: Caffeine.newBuilder()
						.ticker(ticker)
						.executor(Runnable::run)
						.expireAfterAccess(owner.sessionIdleTimeout)
						.maximumSize(owner.maxTrackedKeys)
						.build();
			this.budgetText = (maxCalls != null) ? policy.budgetText() : null;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			AtomicInteger budget = takeFromBudget(invocation);
			AtomicRateLimiter limiter = limiter(invocation);
			long nanosToWait = limiter.reservePermission();
			if (nanosToWait < 0) {
				refund(budget);
				this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, this.toolName);
				throw new ToolRateLimitedException(this.toolName, NAME, this.limitText, retryAfter(limiter));
			}
			if (nanosToWait > 0) {
				try {
					TimeUnit.NANOSECONDS.sleep(nanosToWait);
				}
				catch (InterruptedException ex) {
					refund(budget);
					throw ex;
				}
			}
			return this.next.handle(invocation);
		}

		private @Nullable AtomicInteger takeFromBudget(ToolInvocation invocation) {
			Cache<String, AtomicInteger> budgets = this.budgets;
			String session = invocation.sessionId();
			if (budgets == null || session == null) {
				return null;
			}
			AtomicInteger used = budgets.get(session, NEW_BUDGET);
			if (used.incrementAndGet() > this.maxCallsPerSession) {
				used.decrementAndGet();
				this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, this.toolName);
				throw new ToolRateLimitedException(this.toolName, NAME, Objects.requireNonNull(this.budgetText),
						Duration.ZERO);
			}
			return used;
		}

		private static void refund(@Nullable AtomicInteger budget) {
			if (budget != null) {
				budget.decrementAndGet();
			}
		}

		private AtomicRateLimiter limiter(ToolInvocation invocation) {
			AtomicRateLimiter toolLimiter = this.toolLimiter;
			if (toolLimiter != null) {
				return toolLimiter;
			}
			String key = (this.key == RateLimitKey.TOOL_AND_SESSION) ? invocation.sessionId() : invocation.principalName();
			return Objects.requireNonNull(this.keyedLimiters).get((key != null) ? key : "", this.newLimiter);
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

		long trackedBudgets() {
			Cache<String, AtomicInteger> budgets = this.budgets;
			if (budgets == null) {
				return 0;
			}
			budgets.cleanUp();
			return budgets.estimatedSize();
		}

	}

	/**
	 * Builds a {@link RateLimitMiddleware}.
	 */
	public static final class Builder {

		private @Nullable Function<ToolDescriptor, @Nullable RateLimitPolicy> policies;

		private int order = BuiltInOrder.RATE_LIMIT;

		private Ticker ticker = Ticker.systemTicker();

		private MiddlewareMetrics metrics = MiddlewareMetrics.NONE;

		private int maxTrackedKeys = 10_000;

		private Duration sessionIdleTimeout = Duration.ofHours(1);

		private Builder() {
		}

		/**
		 * Decides per tool, when its pipeline is built, whether and how it is limited (required).
		 * @param policies gives a tool's policy, or {@code null} for a tool that is not limited; called once per
		 * tool
		 * @return this builder
		 */
		public Builder policies(Function<ToolDescriptor, @Nullable RateLimitPolicy> policies) {
			this.policies = Objects.requireNonNull(policies, "policies");
			return this;
		}

		/**
		 * Sets the order (default {@link BuiltInOrder#RATE_LIMIT}).
		 * @param order the order; a lower value runs further out
		 * @return this builder
		 */
		public Builder order(int order) {
			this.order = order;
			return this;
		}

		/**
		 * Sets the time source of the limiters and of their eviction (default the system's nano time); tests pass a
		 * fake one to refill limits and expire sessions without waiting.
		 * @param ticker the time source, in nanoseconds
		 * @return this builder
		 */
		public Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return this;
		}

		/**
		 * Sets where rejections are counted (default {@link MiddlewareMetrics#NONE}).
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(MiddlewareMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/**
		 * Sets how many limiters per session or principal, and how many session budgets, each tool keeps at most
		 * (default 10,000); beyond that the least used are dropped.
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
		 * Sets how long a session may make no call before its budgets are forgotten (default one hour).
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
		 * Builds the middleware.
		 * @return the middleware
		 */
		public RateLimitMiddleware build() {
			return new RateLimitMiddleware(this);
		}

	}

}
