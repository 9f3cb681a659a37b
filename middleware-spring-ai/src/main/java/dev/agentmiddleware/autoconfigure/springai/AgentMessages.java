package dev.agentmiddleware.autoconfigure.springai;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.agent.AgentMiddleware.AgentMessage;
import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;
import dev.agentmiddleware.agent.ModelUsage;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;

/**
 * Spring AI messages, and the usage of a model response, in the model-neutral form agent
 * middleware sees.
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
			.map((call) -> new ToolCallRequest(call.id(), call.name(),
					(call.arguments() != null) ? call.arguments() : ""))
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

	/**
	 * What a model response used, from its metadata: {@code getUsage()} (prompt tokens as
	 * input, completion tokens as output, the total as reported or their sum) and
	 * {@code getModel()}. Spring AI gives a response without usage an {@link EmptyUsage};
	 * that, no metadata, or a usage with neither count is unknown, never zero.
	 * @param response the response, or {@code null}
	 * @return the usage
	 */
	static ModelUsage usage(@Nullable ChatResponse response) {
		ChatResponseMetadata metadata = (response != null) ? response.getMetadata() : null;
		String model = (metadata != null) ? metadata.getModel() : null;
		Usage usage = (metadata != null) ? metadata.getUsage() : null;
		if (usage == null || usage instanceof EmptyUsage
				|| (usage.getPromptTokens() == null && usage.getCompletionTokens() == null)) {
			return ModelUsage.unknown(model);
		}
		long input = count(usage.getPromptTokens());
		long output = count(usage.getCompletionTokens());
		Integer total = usage.getTotalTokens();
		return new ModelUsage(model, input, output,
				(total != null) ? Math.max(count(total), input + output) : input + output, true);
	}

	private static long count(@Nullable Integer tokens) {
		return (tokens != null) ? Math.max(0, tokens) : 0;
	}

}
