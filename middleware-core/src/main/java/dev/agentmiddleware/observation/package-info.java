/**
 * Observability, part two of three — <b>Micrometer</b>: the
 * {@link dev.agentmiddleware.observation.ObservationMiddleware} opens one
 * {@link io.micrometer.observation.Observation} per call (a timer, a tracing span and a
 * long-task timer from the same instrumentation), and
 * {@link dev.agentmiddleware.observation.MicrometerMiddlewareMetrics} turns the
 * built-ins' counts into Micrometer counters. Needs {@code micrometer-observation} (and
 * {@code micrometer-core} for the counters) on the class path.
 *
 * <p>
 * The other two parts: {@link dev.agentmiddleware.callrecord} (one record per call for
 * observers, plain Java) and {@link dev.agentmiddleware.metrics} (the counting interface
 * the built-ins report to).
 */
@NullMarked
package dev.agentmiddleware.observation;

import org.jspecify.annotations.NullMarked;
