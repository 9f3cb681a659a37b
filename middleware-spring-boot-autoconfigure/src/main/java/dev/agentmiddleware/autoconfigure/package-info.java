/**
 * Auto-configuration of the agent tool middleware, and what every part of it shares: the check of the
 * {@code agent.middleware} keys, the failure analysis of bad settings, the secret redactor and the observers
 * ({@link dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration}), and the one settings path of the
 * built-ins ({@link dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties},
 * {@link dev.agentmiddleware.autoconfigure.ToolSettings}, {@link dev.agentmiddleware.autoconfigure.PerToolSettings}).
 * The root properties, {@link dev.agentmiddleware.spring.tool.AgentMiddlewareProperties}, live in
 * {@code spring.tool}, the layer every other part builds on, so that packages depend one way only: here and
 * {@code spring.ai}, {@code spring.mcp} on {@code spring.tool}, never back.
 * <p>
 * <b>Where an auto-configuration lives.</b> As in Spring Boot 4, where each module keeps its
 * {@code …autoconfigure} classes beside its own code, an auto-configuration and its properties live with the code
 * they configure, so that what they wire can stay package-private:
 * <ul>
 * <li>Code of this module lives in {@code dev.agentmiddleware.spring.<feature>}, and so does its
 * auto-configuration: {@code spring.tool.AgentToolAutoConfiguration} (tool registration),
 * {@code spring.ai.AgentToolSpringAiAutoConfiguration} and {@code spring.ai.AgentChatClientAutoConfiguration}
 * (Spring AI), {@code spring.mcp.AgentMcpServerAutoConfiguration} (the MCP server).</li>
 * <li>Code of {@code middleware-core} cannot hold Spring, so each core package is configured from the package of the
 * same name here: {@code autoconfigure.cache} configures core {@code cache}, {@code autoconfigure.retry} core
 * {@code retry}, and so on ({@code agent} also for core {@code todo}, {@code approval}, {@code crashrecovery} for
 * core {@code recovery}, {@code learning}, {@code logging}, {@code observation}, {@code ratelimit}, {@code thread},
 * {@code timeout}), together with the
 * Spring code that exists only for that built-in: its actuator contributor, its events, its JDBC store, and for
 * approval the REST API and console, the JDBC store and the MCP elicitation provider. {@code autoconfigure.actuate}
 * holds the actuator endpoint and its auto-configuration.</li>
 * </ul>
 * No class here reuses a Spring Boot simple name: built-ins are {@code Tool…AutoConfiguration} /
 * {@code Tool…Properties}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure;

import org.jspecify.annotations.NullMarked;
