/**
 * Auto-configuration of agent-level middleware: the built-in todo, error-recovery and loop-guard middleware, the
 * composition with user {@code AgentMiddleware} beans, their tools, and the Spring AI {@code ChatClient} tool loop.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.agent;

import org.jspecify.annotations.NullMarked;
