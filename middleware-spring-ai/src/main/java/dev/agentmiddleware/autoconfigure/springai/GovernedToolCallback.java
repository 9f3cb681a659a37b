package dev.agentmiddleware.autoconfigure.springai;

import java.util.Objects;

import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.InvocationAttribute;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * Puts a Spring AI {@link ToolCallback} that is not ours (a {@code @Tool} method, a
 * function callback, a tool of an MCP client, ...) behind the same middleware chain as an
 * {@code @AgentTool} method.
 *
 * <p>
 * {@link #govern} registers the callback's tool in the {@link AgentToolRegistry} (so it
 * shows in the registry, the MCP tool list and the actuator endpoint) with a descriptor
 * derived from its {@link ToolDefinition} and {@link ToolMetadata}: name, description,
 * input schema and {@code returnDirect}. Spring AI declares no safety level, so the tool
 * counts as {@link SafetyLevel#DANGEROUS}, not read-only and not idempotent (fail-safe:
 * it is never cached or retried unless configuration says so). A call binds the JSON
 * input against the schema's properties (bad input gets a clear error and never reaches
 * the chain or the delegate), runs the tool's pipeline, and at the end of the chain calls
 * the delegate with the (possibly rewritten) arguments as JSON and the original
 * {@link ToolContext}. Failures become the text of the {@link ToolErrorFormatter}, as for
 * an {@code @AgentTool}: returned to a {@code ChatClient}, raised as a
 * {@code ToolCallFailedException} to an MCP client.
 *
 * <p>
 * Governing is idempotent: our own callbacks ({@link AgentToolCallback},
 * {@code GovernedToolCallback}) are returned as they are, so the chain runs exactly once
 * per call. Governing another instance of the same tool (same name, definition and
 * callback class, as Spring AI creates per request for {@code @Tool} objects) reuses the
 * registered tool and pipeline, and each call runs the instance it was made on.
 * <pre>{@code
 * ToolCallback governed = GovernedToolCallback.govern(methodToolCallback, registry, errorFormatter);
 * String answer = governed.call("{\"city\":\"Lisbon\"}", toolContext);
 * }</pre>
 */
public final class GovernedToolCallback implements ToolCallback {

	/**
	 * The invocation attribute carrying the Spring AI tool context of a governed call.
	 */
	public static final InvocationAttribute<ToolContext> TOOL_CONTEXT = InvocationAttribute.of("spring-ai.tool-context",
			ToolContext.class);

	/**
	 * The invocation attribute carrying the callback instance a governed call runs at the
	 * end of the chain.
	 */
	public static final InvocationAttribute<ToolCallback> DELEGATE = InvocationAttribute.of("spring-ai.tool-callback",
			ToolCallback.class);

	// The JSON input as the model sent it, handed to the delegate as it is when no layer
	// changed the arguments.
	private static final InvocationAttribute<String> INPUT = InvocationAttribute.of("spring-ai.tool-input",
			String.class);

	private static final String OWNER_PREFIX = "spring-ai:";

	private static final Logger logger = LoggerFactory.getLogger(GovernedToolCallback.class);

	private final ToolCallback delegate;

	private final RegisteredTool tool;

	private final ToolErrorFormatter errorFormatter;

	private GovernedToolCallback(ToolCallback delegate, RegisteredTool tool, ToolErrorFormatter errorFormatter) {
		this.delegate = delegate;
		this.tool = tool;
		this.errorFormatter = errorFormatter;
	}

	/**
	 * Governs a callback: registers its tool and returns a callback that runs the tool's
	 * chain, or the callback itself when it already runs our chain.
	 * @param callback any Spring AI tool callback
	 * @param registry the registry the tool joins
	 * @param errorFormatter turns failures into text for the model
	 * @return a callback whose calls pass the chain exactly once
	 * @throws IllegalStateException if another tool of the registry already has the
	 * callback's name
	 * @throws IllegalArgumentException if the callback's name is not a valid tool name
	 */
	public static ToolCallback govern(ToolCallback callback, AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter) {
		Objects.requireNonNull(callback, "callback");
		if (isGoverned(callback)) {
			return callback;
		}
		ToolDescriptor descriptor = descriptor(callback);
		ExecutableTool executable = new ExecutableTool(descriptor, (invocation) -> callDelegate(invocation, callback));
		RegisteredTool tool = registry.register(executable, OWNER_PREFIX + callback.getClass().getName());
		return new GovernedToolCallback(callback, tool, errorFormatter);
	}

	/**
	 * Whether a callback already runs our chain: an {@link AgentToolCallback} or a
	 * {@code GovernedToolCallback}.
	 * @param callback a tool callback
	 * @return {@code true} if governing it again would run the chain twice
	 */
	public static boolean isGoverned(ToolCallback callback) {
		return callback instanceof GovernedToolCallback || callback instanceof AgentToolCallback;
	}

	/**
	 * The descriptor a callback's tool gets: name, description, schema and
	 * {@code returnDirect} from Spring AI, {@link SafetyLevel#DANGEROUS} because Spring
	 * AI declares no safety level, and a {@code String} result.
	 * @param callback a tool callback
	 * @return the descriptor
	 */
	public static ToolDescriptor descriptor(ToolCallback callback) {
		ToolDefinition definition = callback.getToolDefinition();
		return ToolDescriptor.builder(definition.name())
			.description(definition.description())
			.inputSchema(definition.inputSchema())
			.safety(SafetyLevel.DANGEROUS)
			.returnDirect(callback.getToolMetadata().returnDirect())
			.resultType(String.class)
			.build();
	}

	// Spring AI wraps a tool's own exception in a ToolExecutionException: unwrap it, so
	// that the chain (retry
	// policies, observers, error recovery) sees the tool's exception unchanged, as for an
	// @AgentTool.
	private static @Nullable Object callDelegate(ToolInvocation invocation, ToolCallback fallback) throws Exception {
		ToolCallback delegate = invocation.attribute(DELEGATE);
		ToolContext toolContext = invocation.attribute(TOOL_CONTEXT);
		// Bound once: the arguments the chain bound from the model's JSON reach the
		// delegate as that JSON, unless a
		// layer replaced them (then they are written out again).
		String sent = invocation.attribute(INPUT);
		String input = (sent != null && ToolCall.current().hasArgumentsAsBound(invocation)) ? sent
				: JsonMapper.shared().writeValueAsString(invocation.arguments());
		try {
			return (delegate != null ? delegate : fallback).call(input, toolContext);
		}
		catch (ToolExecutionException ex) {
			if (ex.getCause() instanceof Exception cause) {
				throw cause;
			}
			throw ex;
		}
	}

	/**
	 * The callback this one governs.
	 * @return the delegate
	 */
	public ToolCallback delegate() {
		return this.delegate;
	}

	/**
	 * The registered tool whose pipeline each call runs.
	 * @return the registered tool
	 */
	public RegisteredTool tool() {
		return this.tool;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.delegate.getToolDefinition();
	}

	@Override
	public ToolMetadata getToolMetadata() {
		return this.delegate.getToolMetadata();
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		return ToolCaller.call(this.tool, toolInput, toolContext, (described) -> {
			described.attribute(DELEGATE, this.delegate);
			if (toolInput != null) {
				described.attribute(INPUT, toolInput);
			}
			if (toolContext != null) {
				described.attribute(TOOL_CONTEXT, toolContext);
			}
		}, (result) -> (result != null) ? result.toString() : "", this.errorFormatter, logger);
	}

	@Override
	public String toString() {
		return "GovernedToolCallback[" + this.tool.name() + " -> " + this.delegate + "]";
	}

}
