/**
 * Auto-configuration of retries for idempotent and read-only tools: properties under
 * {@code agent.middleware.retry}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.retry;

import org.jspecify.annotations.NullMarked;
