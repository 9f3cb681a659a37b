package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationAttribute;
import dev.agentmiddleware.tool.ToolContractViolationException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * Adapts a {@link ToolInterceptor} to {@link ToolMiddleware}: nesting the adapted layers gives FIFO before-hooks
 * and LIFO after-hooks, and an outer layer's after-hook sees whatever an inner layer did.
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

	private record Layer(ToolInterceptor interceptor, String name, ToolHandler next) implements ToolHandler {

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
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
			ToolCallResult result;
			if (decision.isSkip()) {
				invocation.reportDecision(decision.skipOutcome(), this.name);
				SkipMarker marker = invocation.attribute(SKIP_MARKER);
				if (marker != null) {
					marker.skipped = true;
				}
				result = ToolCallResult.skipped(decision.result());
			}
			else {
				// Lets the after-hooks of this and every outer interceptor see a skip further in; the outermost
				// interceptor layer attaches the marker, the inner ones share it.
				SkipMarker marker = inner.attribute(SKIP_MARKER);
				ToolInvocation passed = inner;
				if (marker == null) {
					marker = new SkipMarker();
					passed = inner.withAttribute(SKIP_MARKER, marker);
				}
				marker.skipped = false;
				try {
					Object value = this.next.handle(passed);
					result = marker.skipped ? ToolCallResult.skipped(value) : ToolCallResult.success(value);
				}
				catch (Exception ex) {
					result = ToolCallResult.failure(ex);
				}
			}
			ToolCallResult after;
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
			invocation.reportDecision(CallOutcome.FAILED, this.name);
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

	private static final InvocationAttribute<SkipMarker> SKIP_MARKER = InvocationAttribute.of("interceptor-skip",
			SkipMarker.class);

	/**
	 * Set by an interceptor that skips, read by the interceptors outside it once the layers inside return.
	 */
	static final class SkipMarker {

		volatile boolean skipped;

	}

	/**
	 * Attached as a suppressed exception to name the interceptor that raised a failure, without changing the
	 * failure's type.
	 */
	static final class InterceptorFailure extends RuntimeException {

		InterceptorFailure(String message) {
			super(message, null, false, false);
		}

	}

}
