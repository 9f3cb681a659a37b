package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession;
import dev.agentmiddleware.binding.JsonArgumentBinder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolArguments;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.jspecify.annotations.Nullable;

/**
 * One registered tool: its descriptor, what declares it (an {@code @AgentTool} bean
 * method, an agent middleware or a Spring AI {@code ToolCallback}), the binder of its
 * JSON arguments, and its pipeline, built once on first use.
 */
public final class RegisteredTool {

	private final ExecutableTool tool;

	private final String beanName;

	private final @Nullable Method method;

	private final ToolArguments.Names argumentNames;

	private final ToolProgressParameter progress;

	private final JsonArgumentBinder binder;

	private final @Nullable Object target;

	private final @Nullable ToolArgumentValidator validator;

	private final Function<ExecutableTool, ToolPipeline> pipelineFactory;

	private volatile @Nullable ToolPipeline pipeline;

	// Whether binding is a function of the arguments as sent alone (no validator checks
	// this tool's calls); worked
	// out on first use
	private @Nullable Boolean bindsAsSent;

	RegisteredTool(ExecutableTool tool, String beanName, Object target, Method method, String[] parameterNames,
			JsonArgumentBinder binder, @Nullable ToolArgumentValidator validator,
			Function<ExecutableTool, ToolPipeline> pipelineFactory) {
		this.tool = tool;
		this.beanName = beanName;
		this.method = method;
		this.argumentNames = ToolArguments.names(parameterNames);
		this.progress = ToolProgressParameter.of(method);
		this.binder = binder;
		this.target = target;
		this.validator = validator;
		this.pipelineFactory = pipelineFactory;
	}

	/**
	 * What the tool is.
	 * @return the descriptor
	 */
	public ToolDescriptor descriptor() {
		return this.tool.descriptor();
	}

	/**
	 * The tool's name.
	 * @return the name
	 */
	public String name() {
		return this.tool.descriptor().name();
	}

	RegisteredTool(ExecutableTool tool, String owner, JsonArgumentBinder binder,
			Function<ExecutableTool, ToolPipeline> pipelineFactory) {
		this.tool = tool;
		this.beanName = owner;
		this.method = null;
		this.argumentNames = ToolArguments.names();
		this.progress = ToolProgressParameter.NONE;
		this.binder = binder;
		this.target = null;
		this.validator = null;
		this.pipelineFactory = pipelineFactory;
	}

	/**
	 * What declares the tool: the name of the bean of an {@code @AgentTool} method,
	 * otherwise the owner given at
	 * {@linkplain AgentToolRegistry#register(ExecutableTool, String) registration}, such
	 * as {@code agent-middleware:todo}.
	 * @return the bean name or owner
	 */
	public String beanName() {
		return this.beanName;
	}

	/**
	 * The {@code @AgentTool} method.
	 * @return the method, or {@code null} for a tool that is not an {@code @AgentTool}
	 * method
	 */
	public @Nullable Method method() {
		return this.method;
	}

	/**
	 * The tool's own code, before any middleware.
	 * @return the executable tool
	 */
	public ExecutableTool executable() {
		return this.tool;
	}

	/**
	 * Binds the JSON arguments of a call to the method's parameter types and checks their
	 * constraints, before the call enters the chain.
	 * @param json the arguments object as JSON, {@code null} or blank for none
	 * @return the arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException naming the tool,
	 * the parameter and what was expected
	 */
	public Map<String, @Nullable Object> bind(@Nullable String json) {
		Map<String, @Nullable Object> arguments = this.binder.bind(json);
		if (this.validator != null && this.target != null) {
			this.validator.validate(this, this.target, arguments);
		}
		return arguments;
	}

	/**
	 * Binds arguments given as a map of JSON values, as an MCP client sends them, and
	 * checks their constraints. Accepts and refuses exactly what {@link #bind(String)}
	 * does for the same JSON.
	 * @param arguments the arguments by name, {@code null} or empty for none
	 * @return the arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException naming the tool,
	 * the parameter and what was expected
	 */
	public Map<String, @Nullable Object> bindValues(@Nullable Map<String, ? extends @Nullable Object> arguments) {
		Map<String, @Nullable Object> bound = this.binder.bindValues(arguments);
		if (this.validator != null && this.target != null) {
			this.validator.validate(this, this.target, bound);
		}
		return bound;
	}

	/**
	 * Starts a call whose JSON arguments the pipeline binds, inside its observer tier, so
	 * that a call refused for its arguments is observed, counted and logged like any
	 * other.
	 * @param json the arguments object as JSON, {@code null} or blank for none
	 * @return an invocation builder carrying the unbound arguments
	 */
	public ToolInvocation.Builder unboundInvocation(@Nullable String json) {
		Supplier<Map<String, @Nullable Object>> binding = () -> bind(json);
		return ToolInvocation.builder(descriptor())
			.attribute(UnboundArguments.ATTRIBUTE, (json != null && bindsAsSent()) ? UnboundArguments.of(json, binding)
					: new UnboundArguments(binding));
	}

	/**
	 * Starts a call whose arguments, a map of JSON values as an MCP client sends them,
	 * the pipeline binds inside its observer tier. Until bound, the invocation's
	 * arguments are the values as sent.
	 * @param arguments the arguments by name, {@code null} for none
	 * @return an invocation builder carrying the unbound arguments
	 */
	public ToolInvocation.Builder unboundInvocation(@Nullable Map<String, ? extends @Nullable Object> arguments) {
		Supplier<Map<String, @Nullable Object>> binding = () -> bindValues(arguments);
		ToolInvocation.Builder builder = ToolInvocation.builder(descriptor())
			.attribute(UnboundArguments.ATTRIBUTE, (arguments != null && bindsAsSent())
					? UnboundArguments.of(arguments, binding) : new UnboundArguments(binding));
		return (arguments != null) ? builder.arguments(arguments) : builder;
	}

	// Unbound arguments carry the arguments as sent, so that the cache may answer a
	// repeated call without binding
	// it, only where binding is a function of them alone (see UnboundArguments)
	private boolean bindsAsSent() {
		Boolean bindsAsSent = this.bindsAsSent;
		if (bindsAsSent == null) {
			bindsAsSent = this.validator == null || this.target == null || !this.validator.checks(this, this.target);
			this.bindsAsSent = bindsAsSent;
		}
		return bindsAsSent;
	}

	/**
	 * The tool's pipeline: every applicable middleware around the method. Built on first
	 * use.
	 * @return the pipeline
	 */
	public ToolPipeline pipeline() {
		ToolPipeline pipeline = this.pipeline;
		if (pipeline == null) {
			synchronized (this) {
				pipeline = this.pipeline;
				if (pipeline == null) {
					pipeline = this.pipelineFactory.apply(this.tool);
					this.pipeline = pipeline;
				}
			}
		}
		return pipeline;
	}

	/**
	 * Builds the invocation of a direct Java call from the method's argument array. A
	 * {@code ToolProgress} the caller passed gets the progress of the call; a
	 * {@code ToolClient} the caller passed is the call's client.
	 * @param values the argument values, in parameter order
	 * @param session the caller's session and principal
	 * @return the invocation, from {@link dev.agentmiddleware.tool.InvocationSource#JAVA}
	 */
	ToolInvocation javaInvocation(@Nullable Object[] values, ToolCallSession session) {
		ToolInvocation.Builder invocation = ToolInvocation.builder(descriptor())
			.arguments(this.argumentNames.with(this.progress.argumentValues(values)))
			.sessionId(session.sessionId())
			.principal(session.principal());
		ToolClient client = this.progress.javaClient(values);
		if (client != null) {
			invocation.attribute(ToolClient.ATTRIBUTE, client);
		}
		ProgressTarget progress = this.progress.javaTarget(values);
		return (progress != null) ? invocation.attribute(ProgressTarget.ATTRIBUTE, progress).build()
				: invocation.build();
	}

	// Where the method takes the progress of its call, if it does
	ToolProgressParameter progressParameter() {
		return this.progress;
	}

	@Override
	public String toString() {
		if (this.method == null) {
			return name() + " (" + this.beanName + ")";
		}
		return name() + " (bean '" + this.beanName + "', " + this.method.getDeclaringClass().getSimpleName() + "."
				+ this.method.getName() + ")";
	}

}
