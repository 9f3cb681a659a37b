package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * What happened inside one observed call: which middleware decided its outcome without running the tool,
 * and whether the tool itself ran.
 *
 * <p>The observer tier creates one per call and attaches it to the {@link ToolInvocation}; the layers inside
 * report through {@link ToolInvocation#reportDecision(CallOutcome, String)}. Unobserved calls carry none and
 * reporting costs nothing. Fields are volatile because a timeout may run the tool on another thread.
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
