package dev.agentmiddleware.chain;

import java.util.Map;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;

import org.jspecify.annotations.Nullable;

/**
 * The step of every pipeline that binds the
 * {@link dev.agentmiddleware.tool.UnboundArguments} of a call coming from a model or an
 * MCP client, at order {@link BuiltInOrder#ARGUMENT_BINDING}: inside observation and
 * logging, which therefore see a refused call with its own outcome
 * ({@code invalid_arguments}), and outside approval, cache and the rest, which see only
 * bound arguments. A call that is already bound (a direct Java call) passes through
 * untouched.
 *
 * <p>
 * Every pipeline has this step: {@link ToolPipeline.Builder#build()} adds it
 * innermost-outside-everything when the middleware given do not include it. It is not
 * listed among a pipeline's {@linkplain ToolPipeline#layers() layers} and does not make a
 * pipeline non-{@linkplain ToolPipeline#isBare() bare}.
 *
 * <p>
 * <b>Answering before binding.</b> When the layer right inside this step for a tool (no
 * layer between them applies to it) {@linkplain AnswersUnbound answers unbound calls}, as
 * the cache does, this step hands it the call unbound, with a {@link Binding} to bind it
 * by: a repeated call is then answered without binding its arguments again, while a call
 * that is bound is bound, reported and refused exactly as by this step.
 */
public final class ArgumentBindingMiddleware implements OrderedMiddleware {

	/** The shared instance; the step holds no state. */
	public static final ArgumentBindingMiddleware INSTANCE = new ArgumentBindingMiddleware();

	private static final Binding BINDING = new Binding();

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

	// A call to bind runs with a ToolCall of its own when no layer further out created
	// one, which keeps the bound
	// invocation (see ToolCall#hasArgumentsAsBound).
	static ToolHandler binding(ToolHandler next) {
		ToolHandler bindingNext = (next instanceof AnswersUnbound answering)
				? (invocation) -> answering.handleUnbound(invocation, BINDING)
				: (invocation) -> next.handle(bound(invocation));
		return (invocation) -> (invocation.attribute(UnboundArguments.ATTRIBUTE) == null) ? next.handle(invocation)
				: ToolCall.withCall(invocation, bindingNext);
	}

	// The call with its arguments bound, or the call itself when it carries none to bind;
	// the running call keeps the
	// bound invocation for the layers outside this step that are told how the call ended.
	static ToolInvocation bound(ToolInvocation invocation) {
		ToolInvocation bound = invocation.withBoundArguments();
		if (bound != invocation) {
			ToolCall.current().bound(bound);
		}
		return bound;
	}

	/**
	 * The handler of a layer that can answer a call before its arguments are bound, from
	 * its {@linkplain UnboundArguments#asSent() arguments as sent}: the cache's. The
	 * binding step hands such a handler, when it is the next one, every call that carries
	 * {@link UnboundArguments}; calls that carry none (direct Java calls) go to
	 * {@link #handle(ToolInvocation)} as usual. <pre>{@code
	 * public Object handleUnbound(ToolInvocation invocation, ArgumentBindingMiddleware.Binding binding) throws Exception {
	 *     Known known = remembered.get(invocation.attribute(UnboundArguments.ATTRIBUTE).asSent());
	 *     if (known != null && known.answer() != null) {
	 *         binding.boundAs(invocation, known.arguments());   // outer layers see the bound call
	 *         return known.answer();
	 *     }
	 *     return handle(binding.bind(invocation));              // refused here exactly as by the binding step
	 * }
	 * }</pre>
	 */
	public interface AnswersUnbound extends ToolHandler {

		/**
		 * Handles a call that still carries its {@link UnboundArguments}: either answers
		 * it without running the layers inside, after {@link Binding#boundAs telling} the
		 * binding step what its arguments bind to, or {@link Binding#bind binds} it and
		 * handles the bound call.
		 * @param invocation the unbound call
		 * @param binding binds the call and reports it to the layers outside
		 * @return the answer
		 * @throws Exception what binding or the rest of the chain threw, unchanged
		 */
		@Nullable Object handleUnbound(ToolInvocation invocation, Binding binding) throws Exception;

	}

	/**
	 * How an {@link AnswersUnbound} handler binds a call: as the binding step does, so
	 * that a call is refused for its arguments with the same error, and the layers
	 * outside are told of the bound call.
	 */
	public static final class Binding {

		private Binding() {
		}

		/**
		 * Binds the call.
		 * @param invocation the unbound call
		 * @return the bound call
		 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException if the
		 * arguments cannot be bound
		 */
		public ToolInvocation bind(ToolInvocation invocation) {
			return bound(invocation);
		}

		/**
		 * Reports the call as bound to what an earlier binding of the same arguments as
		 * sent gave, without binding it again; for a call answered without running the
		 * layers inside.
		 * @param invocation the unbound call
		 * @param arguments the bound arguments
		 */
		public void boundAs(ToolInvocation invocation, Map<String, ? extends @Nullable Object> arguments) {
			ToolCall call = ToolCall.current();
			if (call.isRecording()) {
				call.bound(invocation.withBoundArguments(arguments));
			}
		}

	}

}
