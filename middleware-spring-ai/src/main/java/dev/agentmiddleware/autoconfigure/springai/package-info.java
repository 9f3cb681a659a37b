/**
 * The boundary to Spring AI, with its auto-configuration: every registered tool as a
 * Spring AI {@code ToolCallback}
 * ({@link dev.agentmiddleware.autoconfigure.springai.AgentToolCallback}, all of them from
 * {@link dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider});
 * Spring AI's own tools governed by the chain
 * ({@link dev.agentmiddleware.autoconfigure.springai.GovernedToolCallback}); agent-level
 * middleware on the {@code ChatClient} tool loop
 * ({@link dev.agentmiddleware.autoconfigure.springai.AgentToolCallingAdvisor}); failures
 * turned into short, redacted text for the model
 * ({@link dev.agentmiddleware.autoconfigure.springai.ToolErrorFormatter},
 * {@code DefaultToolErrorFormatter}, and results by
 * {@link dev.agentmiddleware.autoconfigure.internal.ToolResultText}, which the MCP side
 * shares).
 * <p>
 * {@link dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration}
 * wires the callbacks and the formatter;
 * {@link dev.agentmiddleware.autoconfigure.springai.AgentChatClientAutoConfiguration}
 * (settings: {@code AgentSpringAiProperties}) wires the advisor and the
 * {@code ChatClient}. Internals (package-private): {@code GoverningToolCallingManager},
 * the one decorator of Spring AI's {@code ToolCallingManager}; {@code ToolCallReport}
 * carries each tool call's id and failure in its tool context, {@code ToolCaller} the
 * caller of each call and {@code AgentMessages} the translation of messages. The agent
 * run travels in the request and the tool context; nothing is kept per thread or in a
 * registry of runs.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;

import org.jspecify.annotations.NullMarked;
