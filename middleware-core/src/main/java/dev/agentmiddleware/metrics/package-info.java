/**
 * Observability, part three of three — <b>metrics</b>: counting what the built-in
 * middleware decide (cache hits, rate-limit rejections, retries, approvals) through
 * {@link dev.agentmiddleware.metrics.MiddlewareMetrics}, without tying the middleware to
 * a metrics library.
 *
 * <p>
 * The other two parts: {@link dev.agentmiddleware.callrecord} (one record per call for
 * observers) and {@link dev.agentmiddleware.observation} (Micrometer, including the
 * Micrometer implementation of the counters).
 */
@NullMarked
package dev.agentmiddleware.metrics;

import org.jspecify.annotations.NullMarked;
