package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A test double of a chat model: replays a fixed script of replies (tool calls or text),
 * one per model call, and records every prompt it gets. Stands in for a hosted LLM, which
 * cannot run here. Given a {@link ToolCallingManager}, it also does what a Spring AI
 * model module does to build its request: asks the manager for the tool definitions of
 * each prompt, and records the names of the tools it was offered. Told to
 * {@link #reporting report usage}, every response carries the model's name and its token
 * usage in its metadata, as a model module puts the provider's figures there; otherwise a
 * response has no usage (Spring AI's {@code EmptyUsage}).
 */
class ScriptedChatModel implements ChatModel {

	private final @Nullable ToolCallingManager toolCallingManager;

	private final List<Function<Prompt, AssistantMessage>> script;

	private final AtomicInteger next = new AtomicInteger();

	private volatile @Nullable ChatResponseMetadata metadata;

	final List<Prompt> prompts = new CopyOnWriteArrayList<>();

	/**
	 * The names of the tools each model call was offered, when the model has a
	 * tool-calling manager.
	 */
	final List<List<String>> offeredTools = new CopyOnWriteArrayList<>();

	@SafeVarargs
	ScriptedChatModel(Function<Prompt, AssistantMessage>... script) {
		this(null, script);
	}

	@SafeVarargs
	ScriptedChatModel(@Nullable ToolCallingManager toolCallingManager, Function<Prompt, AssistantMessage>... script) {
		this.toolCallingManager = toolCallingManager;
		this.script = List.of(script);
	}

	/**
	 * Makes every response report a model and its usage.
	 * @param model the model's name
	 * @param promptTokens the input tokens of each response
	 * @param completionTokens the output tokens of each response
	 * @return this model
	 */
	ScriptedChatModel reporting(String model, int promptTokens, int completionTokens) {
		this.metadata = ChatResponseMetadata.builder()
			.model(model)
			.usage(new DefaultUsage(promptTokens, completionTokens))
			.build();
		return this;
	}

	static Function<Prompt, AssistantMessage> toolCalls(AssistantMessage.ToolCall... calls) {
		return (prompt) -> AssistantMessage.builder().content("").toolCalls(List.of(calls)).build();
	}

	static Function<Prompt, AssistantMessage> text(String text) {
		return (prompt) -> new AssistantMessage(text);
	}

	static AssistantMessage.ToolCall call(String id, String name, String arguments) {
		return new AssistantMessage.ToolCall(id, "function", name, arguments);
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		this.prompts.add(prompt);
		if (this.toolCallingManager != null && prompt.getOptions() instanceof ToolCallingChatOptions options) {
			this.offeredTools.add(this.toolCallingManager.resolveToolDefinitions(options)
				.stream()
				.map(ToolDefinition::name)
				.toList());
		}
		int index = this.next.getAndIncrement();
		if (index >= this.script.size()) {
			throw new IllegalStateException("The script has only " + this.script.size() + " replies");
		}
		List<Generation> generations = List.of(new Generation(this.script.get(index).apply(prompt)));
		ChatResponseMetadata metadata = this.metadata;
		return (metadata != null) ? new ChatResponse(generations, metadata) : new ChatResponse(generations);
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		return Flux.defer(() -> Flux.just(call(prompt)));
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().toolContext(Map.of()).build();
	}

}
