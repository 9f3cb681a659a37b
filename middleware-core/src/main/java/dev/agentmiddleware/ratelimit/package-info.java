/**
 * Rate limits and per-session call budgets for tools:
 * {@link dev.agentmiddleware.ratelimit.RateLimitMiddleware}, counting permits in a
 * {@link dev.agentmiddleware.ratelimit.RateLimiterStore}, by default Resilience4j's
 * {@code RateLimiter} in memory
 * ({@link dev.agentmiddleware.ratelimit.InMemoryRateLimiterStore}).
 */
@NullMarked
package dev.agentmiddleware.ratelimit;

import org.jspecify.annotations.NullMarked;
