package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * What happened inside one observed call: which middleware decided its outcome without running the tool,
 * and whether the tool itself ran.
 *
 * <p>The observer tier creates one per call and attaches it to the {@link ToolInvocation}; the layers inside
 * report through {@link ToolInvocation#reportDecision(CallOutcome, String)}. Unobserved calls carry none and
 * reporting costs nothing. Fields are volatile because a timeout may run the tool on another thread.
 *
 * <p>Layers that report the outcome of a call (observation, logging) use the trace already attached by an outer
 * layer, or attach their own:
 * <pre>{@code
 * CallTrace trace = invocation.trace();
 * ToolInvocation inner = invocation;
 * if (trace == null) {
 *     trace = new CallTrace();
 *     inner = invocation.withTrace(trace);
 * }
 * try {
 *     Object result = next.handle(inner);
 *     CallOutcome outcome = trace.returnedOutcome();
 *     ...
 * }
 * catch (Exception ex) {
 *     CallOutcome outcome = CallOutcome.ofFailure(ex);
 *     ...
 * }
 * }</pre>
 */
public final class CallTrace {

	private volatile @Nullable CallOutcome decidedOutcome;

	private volatile @Nullable String decidedBy;

	private volatile boolean toolExecuted;

	/**
	 * Records that a middleware decided the outcome; the first report wins, so an outer layer cannot
	 * overwrite what an inner one decided.
	 * @param outcome the outcome, such as {@link CallOutcome#CACHED}
	 * @param middleware the name of the deciding middleware
	 */
	public void decide(CallOutcome outcome, String middleware) {
		if (this.decidedOutcome == null) {
			this.decidedBy = middleware;
			this.decidedOutcome = outcome;
		}
	}

	/**
	 * Records that the tool's own code ran (at least once).
	 */
	public void markToolExecuted() {
		this.toolExecuted = true;
	}

	/**
	 * The outcome a middleware decided, if any.
	 * @return the decided outcome or {@code null}
	 */
	public @Nullable CallOutcome decidedOutcome() {
		return this.decidedOutcome;
	}

	/**
	 * The outcome of a call that returned normally: the outcome a middleware decided (such as
	 * {@link CallOutcome#CACHED}), else {@link CallOutcome#SUCCEEDED} if the tool ran, else
	 * {@link CallOutcome#SHORT_CIRCUITED}. A decided {@link CallOutcome#FAILED} does not count: a hook that failed
	 * and was then recovered from by an outer layer does not decide a returned call. For a call that threw, use
	 * {@link CallOutcome#ofFailure(Throwable)}.
	 * @return the outcome
	 */
	public CallOutcome returnedOutcome() {
		CallOutcome decided = this.decidedOutcome;
		if (decided != null && decided != CallOutcome.FAILED) {
			return decided;
		}
		return this.toolExecuted ? CallOutcome.SUCCEEDED : CallOutcome.SHORT_CIRCUITED;
	}

	/**
	 * The middleware that decided the {@link #returnedOutcome()} of a call that returned normally.
	 * @return the middleware name, or {@code null} when the tool's own run decided it
	 */
	public @Nullable String returnedDecidedBy() {
		CallOutcome decided = this.decidedOutcome;
		boolean decides = decided != null && decided != CallOutcome.FAILED;
		return (decides || !this.toolExecuted) ? this.decidedBy : null;
	}

	/**
	 * The middleware that decided the outcome of a call that threw: the one named by a
	 * {@link ToolMiddlewareException}, else the one that reported a decision.
	 * @param error what the call threw
	 * @return the middleware name, or {@code null}
	 */
	public @Nullable String failedDecidedBy(Throwable error) {
		if (error instanceof ToolMiddlewareException middlewareException && middlewareException.decidedBy() != null) {
			return middlewareException.decidedBy();
		}
		return this.decidedBy;
	}

	/**
	 * The middleware that decided the outcome, if any.
	 * @return the middleware name or {@code null}
	 */
	public @Nullable String decidedBy() {
		return this.decidedBy;
	}

	/**
	 * Whether the tool's own code ran.
	 * @return {@code true} once the terminal handler was reached
	 */
	public boolean toolExecuted() {
		return this.toolExecuted;
	}

}
