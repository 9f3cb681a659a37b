/**
 * Auto-configuration of the observation of tool calls with Micrometer, and of the
 * Micrometer-backed counters of the built-in middleware.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
