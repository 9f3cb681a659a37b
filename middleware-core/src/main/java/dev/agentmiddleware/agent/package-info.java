/**
 * Agent-level middleware: {@link dev.agentmiddleware.agent.AgentMiddleware} contributes
 * tools and hooks around each iteration of an agent loop;
 * {@link dev.agentmiddleware.agent.AgentRun} drives the hooks and the
 * {@link dev.agentmiddleware.agent.LoopGuard} for one run of a loop, whatever framework
 * runs it.
 */
@NullMarked
package dev.agentmiddleware.agent;

import org.jspecify.annotations.NullMarked;
