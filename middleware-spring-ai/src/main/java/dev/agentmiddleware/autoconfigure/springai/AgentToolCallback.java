package dev.agentmiddleware.autoconfigure.springai;

import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.internal.ToolResultText;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;
import org.springframework.util.function.SingletonSupplier;

/**
 * An {@code @AgentTool} as a Spring AI {@link ToolCallback}: binds the model's JSON
 * arguments to the method's parameters, runs the tool's pipeline and converts the result
 * to text (strings as they are, {@code void} as {@code Done}, anything else as JSON).
 *
 * <p>
 * A failure, including bad arguments, becomes the short text of the
 * {@link ToolErrorFormatter}. For a {@code ChatClient} it is returned as the tool's
 * answer, so one failing tool never aborts the model's turn; for an MCP client it is
 * raised as an exception carrying only that text, which Spring AI's MCP server turns into
 * a result with {@code isError} set.
 * <p>
 * The call's session id comes from the {@link ToolContext}: the MCP session when called
 * over MCP, otherwise the value under {@value #SESSION_ID_KEY} or Spring AI's
 * conversation id: <pre>{@code
 * chatClient.prompt("What's the weather in Lisbon?")
 *     .toolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, conversationId))
 *     .call();
 * }</pre>
 */
public final class AgentToolCallback implements ToolCallback {

	/** The tool-context key whose value becomes the call's session id. */
	public static final String SESSION_ID_KEY = "agent.session-id";

	/**
	 * The tool-context key whose value becomes the call's principal: a
	 * {@link dev.agentmiddleware.tool.ToolPrincipal}, a Spring Security
	 * {@code Authentication} (name and authorities) or a name (no authorities). Without
	 * it, the principal is Spring Security's {@code SecurityContext} of the calling
	 * thread.
	 */
	public static final String PRINCIPAL_KEY = "agent.principal";

	private static final Logger logger = LoggerFactory.getLogger(AgentToolCallback.class);

	private final RegisteredTool tool;

	private final ToolDefinition definition;

	private final ToolMetadata metadata;

	private final ToolErrorFormatter errorFormatter;

	private final JsonMapper jsonMapper;

	/**
	 * Creates the callback.
	 * @param tool the registered tool
	 * @param errorFormatter turns failures into text for the model
	 * @param jsonMapper converts results to JSON
	 */
	public AgentToolCallback(RegisteredTool tool, ToolErrorFormatter errorFormatter, JsonMapper jsonMapper) {
		ToolDescriptor descriptor = tool.descriptor();
		this.tool = tool;
		this.definition = DefaultToolDefinition.builder()
			.name(descriptor.name())
			.description(descriptor.description())
			.inputSchema(descriptor.inputSchema())
			.build();
		this.metadata = ToolMetadata.builder().returnDirect(descriptor.returnDirect()).build();
		this.errorFormatter = errorFormatter;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	@Override
	public ToolMetadata getToolMetadata() {
		return this.metadata;
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		return ToolCaller.call(this.tool, toolInput, toolContext, null,
				(result) -> ToolResultText.of(this.tool.descriptor(), result, this.jsonMapper), this.errorFormatter,
				logger);
	}

	@Override
	public String toString() {
		return "AgentToolCallback[" + this.tool.name() + "]";
	}

	/**
	 * Exposes every registered {@code @AgentTool} as a Spring AI {@link ToolCallback}.
	 * With Spring AI's MCP server starter on the classpath, these become the server's MCP
	 * tools. <pre>{@code
	 * ChatClient client = chatClientBuilder.defaultTools(agentToolCallbackProvider).build();
	 * }</pre>
	 */
	public static final class AgentToolCallbackProvider implements ToolCallbackProvider {

		private final Supplier<ToolCallback[]> callbacks;

		/**
		 * Creates the provider; the callbacks are created on first use, once every tool
		 * is registered.
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

}
