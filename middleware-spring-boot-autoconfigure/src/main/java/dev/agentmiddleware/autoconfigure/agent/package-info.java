/**
 * Auto-configuration of agent-level middleware: the built-in todo, error-recovery and
 * loop-guard middleware, the composition with user {@code AgentMiddleware} beans, and
 * their tools. The Spring AI {@code ChatClient} tool loop is configured beside its code,
 * in {@code dev.agentmiddleware.autoconfigure.springai}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.agent;

import org.jspecify.annotations.NullMarked;
