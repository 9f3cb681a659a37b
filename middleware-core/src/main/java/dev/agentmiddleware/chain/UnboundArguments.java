package dev.agentmiddleware.chain;

import java.util.Map;

import dev.agentmiddleware.tool.InvalidToolArgumentsException;
import dev.agentmiddleware.tool.InvocationAttribute;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of a call as a model or an MCP client sent them, not yet bound to the tool's parameters. A call
 * that carries them under {@link #ATTRIBUTE} is bound inside the pipeline, by its {@link ArgumentBindingMiddleware},
 * so that a refused call is still observed, counted and logged like any other.
 * <pre>{@code
 * ToolInvocation call = ToolInvocation.builder(tool.descriptor())
 *     .attribute(UnboundArguments.ATTRIBUTE, () -> binder.bind(json))
 *     .source(InvocationSource.MCP)
 *     .build();
 * pipeline.call(call);   // binds, then runs the layers inside the binding step and the tool
 * }</pre>
 */
@FunctionalInterface
public interface UnboundArguments {

	/** The attribute under which a call carries its unbound arguments. */
	InvocationAttribute<UnboundArguments> ATTRIBUTE = InvocationAttribute.of("arguments.unbound",
			UnboundArguments.class);

	/**
	 * Binds the arguments to the tool's parameter types and checks their constraints.
	 * @return the bound arguments by parameter name, in declaration order
	 * @throws InvalidToolArgumentsException naming the tool, the parameter and what was expected
	 */
	Map<String, @Nullable Object> bind();

}
