/**
 * Auto-configuration of learning from tool calls: the error-pattern store, the observer
 * tier's adapter for every {@link dev.agentmiddleware.learning.LearningObserver} bean,
 * and a {@link dev.agentmiddleware.autoconfigure.learning.ToolCallEvent} per call.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.learning;

import org.jspecify.annotations.NullMarked;
