package dev.agentmiddleware.autoconfigure.springai;

import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * Exposes every registered {@code @AgentTool} as a Spring AI {@link ToolCallback}. With Spring AI's MCP server
 * starter on the classpath, these become the server's MCP tools.
 * <pre>{@code
 * ChatClient client = chatClientBuilder.defaultToolCallbacks(agentToolCallbackProvider).build();
 * }</pre>
 */
public final class AgentToolCallbackProvider implements ToolCallbackProvider {

	private final Supplier<ToolCallback[]> callbacks;

	/**
	 * Creates the provider; the callbacks are created on first use, once every tool is registered.
	 * @param registry the tools
	 * @param errorFormatter turns failures into text for the model
	 * @param jsonMapper converts results to JSON
	 */
	public AgentToolCallbackProvider(AgentToolRegistry registry, ToolErrorFormatter errorFormatter,
			JsonMapper jsonMapper) {
		this.callbacks = SingletonSupplier.of(() -> registry.tools()
			.stream()
			.map((tool) -> new AgentToolCallback(tool, errorFormatter, jsonMapper))
			.toArray(ToolCallback[]::new));
	}

	@Override
	public ToolCallback[] getToolCallbacks() {
		return this.callbacks.get().clone();
	}

}
