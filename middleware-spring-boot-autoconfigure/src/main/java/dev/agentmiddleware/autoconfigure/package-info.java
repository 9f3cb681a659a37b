/**
 * Auto-configuration of the agent tool middleware, and what every part of it shares: the
 * check of the {@code agent.middleware} keys, the failure analysis of bad settings, the
 * secret redactor and the observers
 * ({@link dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration}), and the
 * one settings path of the built-ins
 * ({@link dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties},
 * {@link dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings},
 * {@link dev.agentmiddleware.autoconfigure.PerToolSettings}). The root properties,
 * {@link dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties}, live in
 * {@code autoconfigure.tool}, the layer every other part builds on, so that packages
 * depend one way only: here, every built-in, {@code autoconfigure.springai} and
 * {@code autoconfigure.mcp} on {@code autoconfigure.tool}, never back.
 * <p>
 * <b>One auto-configuration root.</b> Every auto-configuration of the library lives under
 * this package, in {@code autoconfigure.<feature>}, together with its properties and the
 * Spring code only that feature needs, so that what they wire can stay package-private
 * (an ArchUnit rule keeps every {@code @AutoConfiguration} here):
 * <ul>
 * <li>Each core package is configured from the package of the same name here:
 * {@code autoconfigure.cache} configures core {@code cache},
 * {@code autoconfigure.recovery} core {@code recovery}, {@code autoconfigure.thread} core
 * {@code thread}, and so on ({@code agent} configures the agent-level middleware of core
 * {@code agent} and {@code todo}), with that built-in's actuator contributor, events and
 * JDBC store, and for approval the REST API and console and the MCP elicitation provider.
 * {@code autoconfigure.actuate} holds the actuator endpoint.</li>
 * <li>What exists only in this module is named for what it integrates:
 * {@code autoconfigure.tool} ({@code @AgentTool} registration,
 * {@code AgentToolAutoConfiguration}), {@code autoconfigure.springai} (Spring AI:
 * {@code AgentToolSpringAiAutoConfiguration}, {@code AgentChatClientAutoConfiguration}),
 * {@code autoconfigure.mcp} (the MCP server, {@code AgentMcpServerAutoConfiguration},
 * {@code McpSecurityAutoConfiguration}) and {@code autoconfigure.edge} (the Host/Origin
 * guard).</li>
 * <li>{@code autoconfigure.internal} holds the plumbing they share; it is public for the
 * modules only, not API.</li>
 * </ul>
 * No class here reuses a Spring Boot simple name: built-ins are
 * {@code Tool…AutoConfiguration} / {@code Tool…Properties}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings;

import org.jspecify.annotations.NullMarked;
