package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handler {@link RateLimitMiddleware} puts in front of one limited tool: the
 * session's concurrency cap, then its budget, then the store's limiter. Package-private
 * so that tests can see what it keeps in memory.
 */
final class RateLimitedHandler implements ToolHandler {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitMiddleware.class);

	private static final Function<String, AtomicInteger> NEW_BUDGET = (session) -> new AtomicInteger();

	private static final long UNAVAILABLE_WARNING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final long NEVER = Long.MIN_VALUE;

	private final AtomicLong lastUnavailableWarning = new AtomicLong(NEVER);

	private final Ticker ticker;

	private final String toolName;

	private final ToolHandler next;

	private final MiddlewareMetrics metrics;

	private final RateLimitKey key;

	private final String limitText;

	private final RateLimiterStore.ToolLimiter limiter;

	private final boolean allowWhenStoreUnavailable;

	private final int maxCallsPerSession;

	private final @Nullable Cache<String, AtomicInteger> budgets;

	private final @Nullable String budgetText;

	private final int maxConcurrentCalls;

	// Running calls per session ("" for calls without one); an entry exists only while
	// its count is above zero
	private final @Nullable ConcurrentMap<String, Integer> running;

	private final @Nullable String sessionConcurrencyText;

	private final @Nullable String sessionlessConcurrencyText;

	RateLimitedHandler(String toolName, RateLimitPolicy policy, ToolHandler next, RateLimiterStore store,
			MiddlewareMetrics metrics, Ticker ticker, Duration sessionIdleTimeout, int maxTrackedKeys,
			boolean allowWhenStoreUnavailable) {
		this.toolName = toolName;
		this.next = next;
		this.metrics = metrics;
		this.key = policy.key();
		this.limitText = policy.limitText();
		this.limiter = store.limiter(toolName, policy);
		this.allowWhenStoreUnavailable = allowWhenStoreUnavailable;
		this.ticker = ticker;
		Integer maxCalls = policy.maxCallsPerSession();
		this.maxCallsPerSession = (maxCalls != null) ? maxCalls : Integer.MAX_VALUE;
		this.budgets = (maxCalls == null) ? null
				: Caffeine.newBuilder()
					.ticker(ticker)
					.executor(Runnable::run)
					.expireAfterAccess(sessionIdleTimeout)
					.maximumSize(maxTrackedKeys)
					.build();
		this.budgetText = (maxCalls != null) ? policy.budgetText() : null;
		Integer maxConcurrent = policy.maxConcurrentCalls();
		this.maxConcurrentCalls = (maxConcurrent != null) ? maxConcurrent : Integer.MAX_VALUE;
		this.running = (maxConcurrent != null) ? new ConcurrentHashMap<>() : null;
		this.sessionConcurrencyText = (maxConcurrent != null) ? policy.concurrencyText(true) : null;
		this.sessionlessConcurrencyText = (maxConcurrent != null) ? policy.concurrencyText(false) : null;
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		String session = startRunning(invocation);
		try {
			return limitedHandle(invocation);
		}
		finally {
			stopRunning(session);
		}
	}

	// Takes a running slot of the call's session (or of calls without one), or rejects
	// the call; returns the key
	// of the slot to give back, or null when the tool has no cap.
	private @Nullable String startRunning(ToolInvocation invocation) {
		ConcurrentMap<String, Integer> running = this.running;
		if (running == null) {
			return null;
		}
		String sessionId = invocation.sessionId();
		String session = (sessionId != null) ? sessionId : "";
		boolean[] taken = new boolean[1];
		running.compute(session, (key, count) -> {
			int current = (count != null) ? count : 0;
			if (current >= this.maxConcurrentCalls) {
				return count;
			}
			taken[0] = true;
			return current + 1;
		});
		if (!taken[0]) {
			this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, this.toolName);
			String limit = (sessionId != null) ? this.sessionConcurrencyText : this.sessionlessConcurrencyText;
			throw new ToolRateLimitedException(this.toolName, RateLimitMiddleware.NAME, Objects.requireNonNull(limit),
					Duration.ZERO);
		}
		return session;
	}

	private void stopRunning(@Nullable String session) {
		ConcurrentMap<String, Integer> running = this.running;
		if (running != null && session != null) {
			running.computeIfPresent(session, (key, count) -> (count > 1) ? count - 1 : null);
		}
	}

	private @Nullable Object limitedHandle(ToolInvocation invocation) throws Exception {
		AtomicInteger budget = takeFromBudget(invocation);
		RateLimitDecision decision;
		try {
			decision = acquire(invocation);
		}
		catch (InterruptedException | RuntimeException ex) {
			refund(budget);
			throw ex;
		}
		if (decision == null) {
			return this.next.handle(invocation);
		}
		if (!decision.granted()) {
			refund(budget);
			this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, this.toolName);
			throw new ToolRateLimitedException(this.toolName, RateLimitMiddleware.NAME, this.limitText,
					decision.retryAfter());
		}
		long nanosToWait = decision.waitFor().toNanos();
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

	// The store's decision, or null when the store is unavailable and the middleware
	// fails open.
	private @Nullable RateLimitDecision acquire(ToolInvocation invocation) throws InterruptedException {
		try {
			return this.limiter.acquire(limitKey(invocation));
		}
		catch (RateLimiterUnavailableException ex) {
			logUnavailable(ex);
			if (this.allowWhenStoreUnavailable) {
				return null;
			}
			this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, this.toolName);
			throw new ToolRateLimitedException(this.toolName, RateLimitMiddleware.NAME,
					RateLimiterUnavailableException.LIMIT_TEXT, Duration.ZERO);
		}
	}

	// At most one WARN per tool every 30 seconds while the store fails: the first failure
	// is always logged.
	private void logUnavailable(RateLimiterUnavailableException ex) {
		long now = this.ticker.read();
		long last = this.lastUnavailableWarning.get();
		if (last != NEVER && now - last < UNAVAILABLE_WARNING_INTERVAL_NANOS
				|| !this.lastUnavailableWarning.compareAndSet(last, now)) {
			return;
		}
		logger.warn("Rate limit of tool '{}' could not be checked ({}); the call is {}", this.toolName, ex.getMessage(),
				this.allowWhenStoreUnavailable ? "allowed (fail open)" : "rejected (fail closed)");
	}

	private String limitKey(ToolInvocation invocation) {
		String key = switch (this.key) {
			case TOOL -> null;
			case TOOL_AND_SESSION -> invocation.sessionId();
			case TOOL_AND_PRINCIPAL -> invocation.principalName();
		};
		return (key != null) ? key : "";
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
			throw new ToolRateLimitedException(this.toolName, RateLimitMiddleware.NAME,
					Objects.requireNonNull(this.budgetText), Duration.ZERO);
		}
		return used;
	}

	private static void refund(@Nullable AtomicInteger budget) {
		if (budget != null) {
			budget.decrementAndGet();
		}
	}

	long trackedLimiters() {
		return (this.limiter instanceof InMemoryRateLimiterStore.MemoryToolLimiter memory) ? memory.trackedLimiters()
				: 0;
	}

	long trackedRunningSessions() {
		ConcurrentMap<String, Integer> running = this.running;
		return (running != null) ? running.size() : 0;
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
