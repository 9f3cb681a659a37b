/**
 * Auto-configuration of per-tool authorization: the authorities a tool requires of its
 * caller, declared with {@code @AgentTool(authorities = ...)} and configured under
 * {@code agent.middleware.authorization}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.authorization;

import org.jspecify.annotations.NullMarked;
