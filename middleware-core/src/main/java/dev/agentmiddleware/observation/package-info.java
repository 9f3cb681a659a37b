/**
 * Micrometer instrumentation of tool calls: one {@link io.micrometer.observation.Observation} per call (a timer,
 * a tracing span and a long-task timer from the same instrumentation) and a Micrometer-backed
 * {@link dev.agentmiddleware.metrics.MiddlewareMetrics}. Needs {@code micrometer-observation} (and
 * {@code micrometer-core} for the metrics) on the class path.
 */
@NullMarked
package dev.agentmiddleware.observation;

import org.jspecify.annotations.NullMarked;
