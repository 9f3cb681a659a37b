/**
 * Rate limits and per-session call budgets for tools, on Resilience4j's {@code RateLimiter}:
 * {@link dev.agentmiddleware.ratelimit.RateLimitMiddleware}.
 */
@NullMarked
package dev.agentmiddleware.ratelimit;

import org.jspecify.annotations.NullMarked;
