/**
 * Auto-configuration of the agent tool middleware: properties under {@code agent.middleware}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure;

import org.jspecify.annotations.NullMarked;
