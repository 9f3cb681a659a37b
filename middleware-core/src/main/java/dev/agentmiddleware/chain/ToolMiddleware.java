package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Around-style middleware: wraps a tool's handler in a handler of its own.
 *
 * <p>
 * {@link #wrap} is called <em>once per tool</em>, when the tool's {@link ToolPipeline} is
 * built, not per call. A middleware that does not apply to a tool returns {@code next}
 * itself and then costs nothing per call. The handler it returns may, per call:
 * <ul>
 * <li>call {@code next.handle(invocation)} once (the usual case);</li>
 * <li>call it several times, for example to retry;</li>
 * <li>call it with a changed invocation
 * ({@link dev.agentmiddleware.tool.ToolInvocation#withArgument}), so the layers inside
 * see rewritten arguments or attributes;</li>
 * <li>not call it at all: answer with its own result (report it with
 * {@code ToolCall.current().decide(CallOutcome.SHORT_CIRCUITED, name())}) or refuse by
 * throwing a {@link dev.agentmiddleware.tool.ToolMiddlewareException} that names it.</li>
 * </ul>
 * Per-call state lives on the running {@link ToolCall}, never on the invocation, which is
 * an immutable value.
 *
 * <p>
 * <b>Ordering:</b> a lower order value runs further out. The first middleware given to
 * {@link ToolPipeline#chain} is the outermost: its code before {@code next} runs first,
 * its code after {@code next} runs last.
 *
 * <p>
 * <b>Threading:</b> the returned handler is called concurrently and must keep no per-call
 * state in fields. <b>Results:</b> the value returned must be one the tool's callers
 * accept (see {@link ToolDescriptor#acceptsResult}); otherwise the call fails with a
 * {@link dev.agentmiddleware.chain.ToolContractViolationException} naming this
 * middleware. The chain's result is checked once, outside every layer; only when that
 * check fails is the chain walked again, without the tool, with a check after each layer
 * to find the offender, so the layers outside it run twice for that call. {@code wrap}
 * may then be called once more for the tool. <pre>{@code
 * ToolMiddleware audit = ToolMiddleware.named("audit", (tool, next) -> tool.readOnly() ? next : invocation -> {
 *     auditLog.record(invocation.toolName(), invocation.sessionId());
 *     return next.handle(invocation);
 * });
 * }</pre>
 */
@FunctionalInterface
public interface ToolMiddleware {

	/**
	 * Wraps the handler of one tool.
	 * @param tool the tool whose pipeline is being built
	 * @param next the rest of the chain, ending with the tool's own code
	 * @return the handler to use instead of {@code next}, or {@code next} itself if this
	 * middleware does not apply to the tool; never {@code null}
	 */
	ToolHandler wrap(ToolDescriptor tool, ToolHandler next);

	/**
	 * The name shown in printed chains, observer records and error messages. Defaults to
	 * the class name in kebab case without a {@code Middleware} suffix, for example
	 * {@code call-counting} for {@code CallCountingMiddleware}.
	 * @return the name
	 */
	default String name() {
		return MiddlewareNames.of(getClass(), "Middleware");
	}

	/**
	 * Gives a middleware (typically a lambda) a name.
	 * @param name the name to show
	 * @param middleware the middleware
	 * @return a middleware that behaves like {@code middleware} and is called
	 * {@code name}
	 */
	static ToolMiddleware named(String name, ToolMiddleware middleware) {
		return new NamedMiddleware(name, middleware);
	}

	/**
	 * A middleware broke the chain's contract, for example by answering with a result the
	 * tool's callers cannot accept. The message names the middleware so that its author
	 * can fix it.
	 */
	public static class ToolContractViolationException extends ToolMiddlewareException {

		/**
		 * Creates the exception.
		 * @param toolName the tool whose pipeline holds the middleware
		 * @param middleware the offending middleware
		 * @param problem what it did wrong
		 */
		public ToolContractViolationException(String toolName, String middleware, String problem) {
			super(toolName, middleware,
					"Middleware '" + middleware + "' broke the contract of tool '" + toolName + "': " + problem, null,
					true);
		}

	}

	/**
	 * The call was cancelled by its caller while it ran
	 * ({@link CallCancellation#cancel(String)}): it ends with the outcome
	 * {@link CallOutcome#CANCELLED}, and no further attempt of it runs. Thrown by the
	 * layer that was waiting when the cancellation came (an approval wait, a timed
	 * attempt, a retry's backoff), or in place of what the tool threw once it was
	 * cancelled (an interrupted tool's {@code InterruptedException}, kept as the cause).
	 * <pre>{@code
	 * try {
	 *     pipeline.call(invocation, cancellation);
	 * }
	 * catch (ToolCancelledException ex) {
	 *     // nobody is waiting for this answer any more
	 * }
	 * }</pre>
	 */
	public static final class ToolCancelledException extends ToolMiddlewareException {

		private final @Nullable String reason;

		/**
		 * Creates the exception.
		 * @param toolName the tool whose call was cancelled
		 * @param decidedBy the middleware that was waiting when the cancellation came, or
		 * {@code null} when the tool ran
		 * @param reason why the caller cancelled, or {@code null} when it did not say
		 * @param cause what the cancelled tool threw, or {@code null}
		 */
		public ToolCancelledException(String toolName, @Nullable String decidedBy, @Nullable String reason,
				@Nullable Throwable cause) {
			super(toolName, decidedBy, "Call of tool '" + toolName + "' was cancelled by its caller"
					+ ((reason != null && !reason.isBlank()) ? ": " + reason : ""), cause, false);
			this.reason = reason;
		}

		/**
		 * Why the caller cancelled the call.
		 * @return the reason, or {@code null} when it gave none
		 */
		public @Nullable String reason() {
			return this.reason;
		}

		@Override
		public CallOutcome outcome() {
			return CallOutcome.CANCELLED;
		}

	}

}
