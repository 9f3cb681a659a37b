/**
 * Learning from tool calls: the {@link dev.agentmiddleware.learning.LearningObserver}
 * contract, fed from the observer tier, and the built-in
 * {@link dev.agentmiddleware.learning.ErrorPatternStore}, which groups failures into
 * normalised, classified error patterns and notices when a failing tool recovers.
 */
@NullMarked
package dev.agentmiddleware.learning;

import org.jspecify.annotations.NullMarked;
