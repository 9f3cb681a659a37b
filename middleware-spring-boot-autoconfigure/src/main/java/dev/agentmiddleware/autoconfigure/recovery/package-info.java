/**
 * Auto-configuration of crash recovery for session tools: properties under
 * {@code agent.middleware.crash-recovery}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.recovery;

import org.jspecify.annotations.NullMarked;
