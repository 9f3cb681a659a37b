/**
 * Auto-configuration of rate limits and session call budgets: properties under
 * {@code agent.middleware.rate-limit}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.ratelimit;

import org.jspecify.annotations.NullMarked;
