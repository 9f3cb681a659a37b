package dev.agentmiddleware.spring.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.spring.tool.AgentToolRegistry;

import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Decorates Spring AI's {@link ToolCallingManager} so that tools registered the Spring AI way ({@code @Tool}
 * methods, function callbacks, any other {@link ToolCallback}) pass our middleware chain too: before the tool calls
 * of a model reply run, every callback of the request that does not already run our chain is
 * {@linkplain GovernedToolCallback#govern governed}. Our own callbacks are left alone, so each call passes the
 * chain exactly once. Everything else is the delegate's.
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
		if (prompt.getOptions() instanceof ToolCallingChatOptions options && options.getToolCallbacks() != null
				&& !options.getToolCallbacks().isEmpty()) {
			List<ToolCallback> callbacks = options.getToolCallbacks();
			List<ToolCallback> governed = new ArrayList<>(callbacks.size());
			boolean changed = false;
			for (ToolCallback callback : callbacks) {
				ToolCallback each = GovernedToolCallback.govern(callback, this.registry, this.errorFormatter);
				changed |= (each != callback);
				governed.add(each);
			}
			if (changed) {
				ToolCallingChatOptions governedOptions = options.mutate().toolCallbacks(governed).build();
				return this.delegate.executeToolCalls(new Prompt(prompt.getInstructions(), governedOptions),
						chatResponse);
			}
		}
		return this.delegate.executeToolCalls(prompt, chatResponse);
	}

}
