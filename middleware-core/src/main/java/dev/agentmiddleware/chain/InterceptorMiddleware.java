package dev.agentmiddleware.chain;

import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Adapts a {@link ToolInterceptor} to {@link ToolMiddleware}: nesting the adapted layers
 * gives FIFO before-hooks and LIFO after-hooks, and an outer layer's after-hook sees
 * whatever an inner layer did.
 */
final class InterceptorMiddleware implements ToolMiddleware {

	private final ToolInterceptor interceptor;

	private final String name;

	InterceptorMiddleware(ToolInterceptor interceptor) {
		this.interceptor = interceptor;
		this.name = interceptor.name();
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		if (!this.interceptor.appliesTo(tool)) {
			return next;
		}
		return new Layer(this.interceptor, this.name, next);
	}

	@Override
	public String name() {
		return this.name;
	}

	private static final class Layer implements ToolHandler {

		private final ToolInterceptor interceptor;

		private final String name;

		private final ToolHandler next;

		private final ToolHandler bound = this::handleBound;

		Layer(ToolInterceptor interceptor, String name, ToolHandler next) {
			this.interceptor = interceptor;
			this.name = name;
			this.next = next;
		}

		// An interceptor reads what the layers inside did (a skip further in), so the
		// outermost one creates the
		// running call when no layer outside did.
		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			return ToolCall.withCall(invocation, this.bound);
		}

		private @Nullable Object handleBound(ToolInvocation invocation) throws Exception {
			ToolCall call = ToolCall.current();
			BeforeDecision decision;
			try {
				decision = this.interceptor.beforeInvocation(invocation);
			}
			catch (Exception ex) {
				throw named(ex, invocation, "beforeInvocation");
			}
			if (decision == null) {
				throw new ToolContractViolationException(invocation.toolName(), this.name,
						"beforeInvocation returned null; return BeforeDecision.proceed() to go on");
			}
			ToolInvocation inner = decision.invocationOr(invocation);
			ToolInterceptor.Result result;
			if (decision.isSkip()) {
				call.decide(decision.skipOutcome(), this.name);
				call.skipped = true;
				result = ToolInterceptor.Result.skipped(decision.result());
			}
			else {
				// The after-hooks of this and every outer interceptor see a skip further
				// in through the running call.
				call.skipped = false;
				try {
					Object value = this.next.handle(inner);
					result = call.skipped ? ToolInterceptor.Result.skipped(value)
							: ToolInterceptor.Result.success(value);
				}
				catch (Exception ex) {
					result = ToolInterceptor.Result.failure(ex);
				}
			}
			ToolInterceptor.Result after;
			try {
				after = this.interceptor.afterInvocation(inner, result);
			}
			catch (Exception ex) {
				throw (ex == result.error()) ? ex : named(ex, invocation, "afterInvocation");
			}
			if (after == null) {
				throw new ToolContractViolationException(invocation.toolName(), this.name,
						"afterInvocation returned null; return the result it was given to keep it");
			}
			return after.getOrThrow();
		}

		private Exception named(Exception ex, ToolInvocation invocation, String phase) {
			ToolCall.current().decide(CallOutcome.FAILED, this.name);
			String message = "Raised by interceptor '" + this.name + "' in " + phase + " of tool '"
					+ invocation.toolName() + "'";
			for (Throwable suppressed : ex.getSuppressed()) {
				if (suppressed instanceof InterceptorFailure && message.equals(suppressed.getMessage())) {
					// A shared exception instance thrown again: it is named already.
					return ex;
				}
			}
			ex.addSuppressed(new InterceptorFailure(message));
			return ex;
		}

	}

	/**
	 * Attached as a suppressed exception to name the interceptor that raised a failure,
	 * without changing the failure's type.
	 */
	static final class InterceptorFailure extends RuntimeException {

		InterceptorFailure(String message) {
			super(message, null, false, false);
		}

	}

}
