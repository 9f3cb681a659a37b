/**
 * The observer tier: one {@link dev.agentmiddleware.observer.ToolCallRecord} per call, delivered to
 * {@link dev.agentmiddleware.observer.ToolCallObserver}s without ever failing or delaying the call.
 */
@NullMarked
package dev.agentmiddleware.observer;

import org.jspecify.annotations.NullMarked;
