/**
 * The boundary to Spring AI, with its auto-configuration: every registered tool as a Spring AI {@code ToolCallback}
 * ({@link dev.agentmiddleware.spring.ai.AgentToolCallback}, all of them from
 * {@link dev.agentmiddleware.spring.ai.AgentToolCallbackProvider}); Spring AI's own tools governed by the chain
 * ({@link dev.agentmiddleware.spring.ai.GovernedToolCallback}); agent-level middleware on the {@code ChatClient}
 * tool loop ({@link dev.agentmiddleware.spring.ai.AgentToolCallingAdvisor}); failures turned into short, redacted
 * text for the model ({@link dev.agentmiddleware.spring.ai.ToolErrorFormatter},
 * {@link dev.agentmiddleware.spring.ai.DefaultToolErrorFormatter}, and results by
 * {@link dev.agentmiddleware.spring.ai.ToolResultText}, which the MCP side shares).
 * <p>
 * {@link dev.agentmiddleware.spring.ai.AgentToolSpringAiAutoConfiguration} wires the callbacks and the formatter;
 * {@link dev.agentmiddleware.spring.ai.AgentChatClientAutoConfiguration} (settings:
 * {@link dev.agentmiddleware.spring.ai.AgentSpringAiProperties}) wires the advisor and the {@code ChatClient}.
 * Internals (package-private): {@code GoverningToolCallingManager} and {@code AgentLoopToolCallingManager} decorate
 * Spring AI's {@code ToolCallingManager}; {@code IterationEventRecorder}, {@code AgentLoopState},
 * {@code AgentMessages} and {@code ToolCaller} carry the loop's state and the caller of each call.
 */
@NullMarked
package dev.agentmiddleware.spring.ai;

import org.jspecify.annotations.NullMarked;
