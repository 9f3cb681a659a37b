package dev.agentmiddleware.autoconfigure.springai;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.agent.AgentMiddleware.AgentMessage;
import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * Spring AI messages in the model-neutral form agent middleware sees.
 */
final class AgentMessages {

	private AgentMessages() {
	}

	static List<AgentMessage> of(List<Message> messages) {
		List<AgentMessage> converted = new ArrayList<>(messages.size());
		for (Message message : messages) {
			converted.add(of(message));
		}
		return converted;
	}

	static AgentMessage of(Message message) {
		String text = (message.getText() != null) ? message.getText() : "";
		return switch (message.getMessageType()) {
			case SYSTEM -> AgentMessage.of(AgentMessage.Role.SYSTEM, text);
			case USER -> AgentMessage.of(AgentMessage.Role.USER, text);
			case ASSISTANT -> new AgentMessage(AgentMessage.Role.ASSISTANT, text,
					toolCalls(((AssistantMessage) message).getToolCalls()));
			case TOOL -> AgentMessage.of(AgentMessage.Role.TOOL, toolText((ToolResponseMessage) message));
		};
	}

	static List<ToolCallRequest> toolCalls(List<AssistantMessage.ToolCall> calls) {
		return calls.stream()
			.map((call) -> new ToolCallRequest(call.id(), call.name(), (call.arguments() != null) ? call.arguments() : ""))
			.toList();
	}

	private static String toolText(ToolResponseMessage message) {
		StringBuilder text = new StringBuilder();
		for (ToolResponseMessage.ToolResponse response : message.getResponses()) {
			if (!text.isEmpty()) {
				text.append('\n');
			}
			text.append(response.name()).append(": ").append(response.responseData());
		}
		return text.toString();
	}

}
