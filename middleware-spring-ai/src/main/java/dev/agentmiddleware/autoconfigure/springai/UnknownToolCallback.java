package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;

import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.UnknownToolException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Stands in for a tool a model called that the request does not have, so that Spring AI's
 * tool loop answers the model with a tool error instead of throwing
 * {@code No ToolCallback found for tool name} at the caller: a call passes
 * {@link AgentToolRegistry#callUnknown} (observed, logged and counted with the outcome
 * {@code unknown_tool}, seen by the observers) and returns the
 * {@link ToolErrorFormatter}'s text naming the tool and the ones that exist. The loop
 * goes on; the model reads the error as the tool's answer.
 */
final class UnknownToolCallback implements ToolCallback {

	private static final Logger logger = LoggerFactory.getLogger(UnknownToolCallback.class);

	private final ToolDefinition definition;

	private final List<String> availableTools;

	private final AgentToolRegistry registry;

	private final ToolErrorFormatter errorFormatter;

	/**
	 * Creates the stand-in.
	 * @param name the name the model called
	 * @param availableTools the tools of the request, sorted
	 * @param registry observes the call
	 * @param errorFormatter puts the failure in words
	 */
	UnknownToolCallback(String name, List<String> availableTools, AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter) {
		this.definition = ToolDefinition.builder()
			.name(name)
			.description("No such tool")
			.inputSchema(ToolDescriptor.EMPTY_OBJECT_SCHEMA)
			.build();
		this.availableTools = List.copyOf(availableTools);
		this.registry = registry;
		this.errorFormatter = errorFormatter;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		ToolCaller caller = ToolCaller.of(toolContext);
		String name = this.definition.name();
		UnknownToolException unknown = this.registry.callUnknown(name, this.availableTools, caller::describe);
		return caller.failed(name, unknown, this.errorFormatter, logger);
	}

}
