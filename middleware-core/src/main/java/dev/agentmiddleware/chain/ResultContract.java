package dev.agentmiddleware.chain;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Checks, once at the boundary of a pipeline's middleware, that the chain's result is one
 * the tool's callers accept, and names the middleware that broke it when it is not. Only
 * placed on tools whose result type restricts anything, and only around middleware (a
 * pipeline without layers is the tool itself).
 *
 * <p>
 * The layers themselves run without a checking frame each, so a pass-through layer costs
 * only its own call. When the check fails (a bug in a middleware), the offender is found
 * by walking the chain once more with a check after every layer; that walk never runs the
 * tool again: it answers with what the tool returned in the failed call when the call
 * recorded it, and otherwise stops where the chain reaches the tool, naming every layer
 * that could have changed the result. The layers outside the offender run twice for that
 * call.
 */
final class ResultContract implements ToolHandler {

	private final ToolDescriptor tool;

	// The middleware that applied to the tool and the argument binding step, outermost
	// first.
	private final List<ToolMiddleware> layers;

	private final ToolHandler head;

	ResultContract(ToolDescriptor tool, List<ToolMiddleware> layers, ToolHandler head) {
		this.tool = tool;
		this.layers = List.copyOf(layers);
		this.head = head;
	}

	static boolean restricts(ToolDescriptor tool) {
		Class<?> type = tool.resultType();
		return type != Object.class && type != void.class && type != Void.class;
	}

	static String describeMismatch(ToolDescriptor tool, @Nullable Object value) {
		return "returned " + ((value != null) ? "a " + value.getClass().getName() : "null") + " but the tool returns "
				+ tool.resultType().getName();
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		return check(invocation, this.head.handle(invocation));
	}

	/**
	 * The chain's result, if the tool's callers accept it.
	 * @param invocation the call as it entered the chain
	 * @param result what the chain returned
	 * @return the result
	 * @throws ToolContractViolationException naming the middleware that broke the
	 * contract
	 */
	@Nullable Object check(ToolInvocation invocation, @Nullable Object result) {
		if (!this.tool.acceptsResult(result)) {
			throw findOffender(invocation, result);
		}
		return result;
	}

	private ToolContractViolationException findOffender(ToolInvocation invocation, @Nullable Object result) {
		ToolCall call = ToolCall.current();
		ToolHandler terminal = call.toolReturned() ? replaying(call.toolResult()) : STOP_AT_THE_TOOL;
		AtomicReference<@Nullable ToolContractViolationException> found = new AtomicReference<>();
		ToolHandler handler = terminal;
		for (int i = this.layers.size() - 1; i >= 0; i--) {
			ToolMiddleware middleware = this.layers.get(i);
			if (middleware instanceof ArgumentBindingMiddleware) {
				handler = ArgumentBindingMiddleware.binding(handler);
				continue;
			}
			ToolHandler wrapped = middleware.wrap(this.tool, handler);
			if (wrapped != null && wrapped != handler) {
				handler = new LayerCheck(this.tool, middleware.name(), wrapped, found);
			}
		}
		try {
			ToolCall.detached(invocation, handler, null);
		}
		catch (Exception | Error ex) {
			// The walk stopped at the tool, or a layer failed this time: the offender is
			// whichever check fired.
		}
		ToolContractViolationException offender = found.get();
		if (offender != null) {
			return offender;
		}
		List<String> names = this.layers.stream()
			.filter((middleware) -> !(middleware instanceof ArgumentBindingMiddleware))
			.map(ToolMiddleware::name)
			.toList();
		return new ToolContractViolationException(this.tool.name(), "one of " + names,
				describeMismatch(this.tool, result));
	}

	private static ToolHandler replaying(@Nullable Object toolResult) {
		return (invocation) -> toolResult;
	}

	private static final ToolHandler STOP_AT_THE_TOOL = (invocation) -> {
		throw new IllegalStateException("The diagnosis of a broken result contract never runs the tool again");
	};

	/**
	 * The check after one layer, used only while looking for the offender; the first
	 * check that fails names it.
	 */
	private record LayerCheck(ToolDescriptor tool, String middleware, ToolHandler delegate,
			AtomicReference<@Nullable ToolContractViolationException> found) implements ToolHandler {

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			Object result = this.delegate.handle(invocation);
			if (!this.tool.acceptsResult(result)) {
				ToolContractViolationException violation = new ToolContractViolationException(this.tool.name(),
						this.middleware, describeMismatch(this.tool, result));
				this.found.compareAndSet(null, violation);
				throw violation;
			}
			return result;
		}

	}

}
