/**
 * Retries of idempotent and read-only tools with exponential backoff and jitter, on
 * Resilience4j's retry configuration: {@link dev.agentmiddleware.retry.RetryMiddleware}.
 */
@NullMarked
package dev.agentmiddleware.retry;

import org.jspecify.annotations.NullMarked;
