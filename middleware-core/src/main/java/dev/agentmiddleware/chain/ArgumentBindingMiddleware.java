package dev.agentmiddleware.chain;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;

/**
 * The step of every pipeline that binds the {@link dev.agentmiddleware.tool.UnboundArguments} of a call coming from a model or an MCP
 * client, at order {@link BuiltInOrder#ARGUMENT_BINDING}: inside observation and logging, which therefore see a
 * refused call with its own outcome ({@code invalid_arguments}), and outside approval, cache and the rest, which
 * see only bound arguments. A call that is already bound (a direct Java call) passes through untouched.
 *
 * <p>Every pipeline has this step: {@link ToolPipeline.Builder#build()} adds it innermost-outside-everything when
 * the middleware given do not include it. It is not listed among a pipeline's {@linkplain ToolPipeline#layers()
 * layers} and does not make a pipeline non-{@linkplain ToolPipeline#isBare() bare}.
 */
public final class ArgumentBindingMiddleware implements OrderedMiddleware {

	/** The shared instance; the step holds no state. */
	public static final ArgumentBindingMiddleware INSTANCE = new ArgumentBindingMiddleware();

	private ArgumentBindingMiddleware() {
	}

	@Override
	public int order() {
		return BuiltInOrder.ARGUMENT_BINDING;
	}

	@Override
	public String name() {
		return "argument-binding";
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		return binding(next);
	}

	// A call to bind runs with a ToolCall of its own when no layer further out created one, which keeps the bound
	// invocation (see ToolCall#hasArgumentsAsBound).
	static ToolHandler binding(ToolHandler next) {
		ToolHandler bindingNext = (invocation) -> next.handle(bound(invocation));
		return (invocation) -> (invocation.attribute(UnboundArguments.ATTRIBUTE) == null) ? next.handle(invocation)
				: ToolCall.withCall(invocation, bindingNext);
	}

	// The call with its arguments bound, or the call itself when it carries none to bind; the running call keeps the
	// bound invocation for the layers outside this step that are told how the call ended.
	static ToolInvocation bound(ToolInvocation invocation) {
		ToolInvocation bound = invocation.withBoundArguments();
		if (bound != invocation) {
			ToolCall.current().bound(bound);
		}
		return bound;
	}

}
