/**
 * Auto-configuration of per-tool timeouts: properties under
 * {@code agent.middleware.timeout}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.timeout;

import org.jspecify.annotations.NullMarked;
