package dev.agentmiddleware.tool;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of a call as a model or an MCP client sent them, not yet bound to the tool's parameters. A call
 * that carries them under {@link #ATTRIBUTE} is bound inside its pipeline, by the argument-binding step
 * ({@code dev.agentmiddleware.chain.ArgumentBindingMiddleware}), so that a call refused for its arguments is still
 * observed, counted and logged like any other. Binding makes a new invocation, which the running
 * {@code dev.agentmiddleware.chain.ToolCall} keeps, so that the observer tier and the outer layers are told of the
 * call's end with the bound arguments; this object and the invocation carrying it never change.
 * <pre>{@code
 * ToolInvocation call = ToolInvocation.builder(tool.descriptor())
 *     .attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(() -> binder.bind(json)))
 *     .source(InvocationSource.MCP)
 *     .build();
 * pipeline.call(call);   // binds, then runs the layers inside the binding step and the tool
 * }</pre>
 */
public final class UnboundArguments {

	/** The attribute under which a call carries its unbound arguments. */
	public static final InvocationAttribute<UnboundArguments> ATTRIBUTE = InvocationAttribute.of("arguments.unbound",
			UnboundArguments.class);

	private final Supplier<Map<String, @Nullable Object>> binder;

	/**
	 * Creates the unbound arguments of one call.
	 * @param binder binds the arguments as sent to the tool's parameter types and checks their constraints,
	 * throwing an {@link dev.agentmiddleware.binding.InvalidToolArgumentsException} naming the tool, the parameter and what was expected
	 */
	public UnboundArguments(Supplier<Map<String, @Nullable Object>> binder) {
		this.binder = Objects.requireNonNull(binder, "binder");
	}

	/**
	 * Binds the arguments; the pipeline's binding step calls it once per call.
	 * @return the bound arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException if the arguments cannot be bound
	 */
	public Map<String, @Nullable Object> bind() {
		return Objects.requireNonNull(this.binder.get(), "bound arguments");
	}

}
