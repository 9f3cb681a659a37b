package dev.agentmiddleware.agent;

import java.util.List;
import java.util.Objects;

/**
 * One message of an agent conversation, in a model-neutral form.
 * <pre>{@code
 * AgentMessage question = AgentMessage.of(AgentMessage.Role.USER, "Plan my trip");
 * }</pre>
 *
 * @param role who speaks
 * @param text the text; empty when the message only carries tool calls
 * @param toolCalls the tool calls an assistant message asks for; empty otherwise
 */
public record AgentMessage(Role role, String text, List<ToolCallRequest> toolCalls) {

	/**
	 * Validates and freezes the components.
	 */
	public AgentMessage {
		Objects.requireNonNull(role, "role");
		Objects.requireNonNull(text, "text");
		toolCalls = List.copyOf(toolCalls);
	}

	/**
	 * A message without tool calls.
	 * @param role who speaks
	 * @param text the text
	 * @return the message
	 */
	public static AgentMessage of(Role role, String text) {
		return new AgentMessage(role, text, List.of());
	}

	/**
	 * Who speaks in a message.
	 */
	public enum Role {

		/** Instructions for the model. */
		SYSTEM,

		/** The user. */
		USER,

		/** The model. */
		ASSISTANT,

		/** Answers of tools to the model's tool calls. */
		TOOL

	}

}
