package dev.agentmiddleware.spring.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.spring.tool.AgentToolRegistry;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.util.StringUtils;

/**
 * Decorates Spring AI's {@link ToolCallingManager} so that tools registered the Spring AI way ({@code @Tool}
 * methods, function callbacks, any other {@link ToolCallback}) pass our middleware chain too: before the tool calls
 * of a model reply run, every callback of the request that does not already run our chain is
 * {@linkplain GovernedToolCallback#govern governed}. Our own callbacks are left alone, so each call passes the
 * chain exactly once. A tool call that names a tool the request does not have is answered to the model as a tool
 * error naming the tool and the ones that exist (outcome {@code unknown_tool}, see
 * {@link AgentToolRegistry#callUnknown}), instead of failing the whole turn. Everything else is the delegate's.
 * <pre>{@code
 * ToolCallingManager manager = new GoverningToolCallingManager(ToolCallingManager.builder().build(), registry,
 *         errorFormatter);
 * }</pre>
 */
final class GoverningToolCallingManager implements ToolCallingManager {

	private final ToolCallingManager delegate;

	private final AgentToolRegistry registry;

	private final ToolErrorFormatter errorFormatter;

	/**
	 * Creates the decorator.
	 * @param delegate Spring AI's manager, which runs the tool calls
	 * @param registry the registry governed tools join
	 * @param errorFormatter turns failures into text for the model
	 */
	GoverningToolCallingManager(ToolCallingManager delegate, AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.registry = Objects.requireNonNull(registry, "registry");
		this.errorFormatter = Objects.requireNonNull(errorFormatter, "errorFormatter");
	}

	/**
	 * The decorated manager.
	 * @return the delegate
	 */
	public ToolCallingManager delegate() {
		return this.delegate;
	}

	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		return this.delegate.resolveToolDefinitions(chatOptions);
	}

	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options)) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		List<ToolCallback> callbacks = (options.getToolCallbacks() != null) ? options.getToolCallbacks() : List.of();
		List<ToolCallback> governed = new ArrayList<>(callbacks.size());
		boolean changed = false;
		for (ToolCallback callback : callbacks) {
			ToolCallback each = GovernedToolCallback.govern(callback, this.registry, this.errorFormatter);
			changed |= (each != callback);
			governed.add(each);
		}
		changed |= answerUnknownTools(governed, chatResponse);
		if (!changed) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		ToolCallingChatOptions governedOptions = options.mutate().toolCallbacks(governed).build();
		return this.delegate.executeToolCalls(new Prompt(prompt.getInstructions(), governedOptions), chatResponse);
	}

	// Spring AI throws "No ToolCallback found for tool name" for a call it cannot resolve, and the turn is lost: a
	// stand-in callback per unknown name answers the model with a tool error instead. A name is known when the
	// request has a callback of that name: those are the tools the model was offered.
	private boolean answerUnknownTools(List<ToolCallback> callbacks, ChatResponse chatResponse) {
		Set<String> known = new TreeSet<>();
		callbacks.forEach((callback) -> known.add(callback.getToolDefinition().name()));
		List<String> available = List.copyOf(known);
		boolean added = false;
		for (Generation generation : chatResponse.getResults()) {
			for (AssistantMessage.ToolCall call : generation.getOutput().getToolCalls()) {
				String name = call.name();
				if (StringUtils.hasText(name) && known.add(name)) {
					callbacks.add(new UnknownToolCallback(name, available, this.registry, this.errorFormatter));
					added = true;
				}
			}
		}
		return added;
	}

}
