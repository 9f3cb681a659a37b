/**
 * Auto-configuration of result guards: properties under {@code agent.middleware.results}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.results;

import org.jspecify.annotations.NullMarked;
