/**
 * Observability, part one of three — the <b>call record tier</b>: one
 * {@link dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord} per call
 * (outcome, deciding middleware, result or error, duration), delivered to
 * {@link dev.agentmiddleware.callrecord.ToolCallObserver}s outside every middleware,
 * without ever failing or delaying the call. Plain Java, no metrics library.
 *
 * <p>
 * The other two parts: {@link dev.agentmiddleware.observation} (Micrometer: one
 * {@code Observation} per call, a timer and a span, as a middleware) and
 * {@link dev.agentmiddleware.metrics} (counters of what the built-ins decided, behind a
 * small interface).
 */
@NullMarked
package dev.agentmiddleware.callrecord;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;

import org.jspecify.annotations.NullMarked;
