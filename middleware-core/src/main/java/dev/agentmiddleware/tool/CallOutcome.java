package dev.agentmiddleware.tool;

/**
 * How a tool call ended, as seen by observers, metrics and logs.
 */
public enum CallOutcome {

	/** The tool ran and returned normally. */
	SUCCEEDED,

	/** The tool or a middleware failed with an exception. */
	FAILED,

	/** A middleware (approval, a policy) refused the call; the tool did not run. */
	DENIED,

	/** A rate limit or call budget rejected the call; the tool did not run. */
	RATE_LIMITED,

	/** The call took longer than its timeout and was abandoned. */
	TIMED_OUT,

	/** The result came from a cache; the tool did not run. */
	CACHED,

	/** A middleware answered with its own result; the tool did not run. */
	SHORT_CIRCUITED;

	/**
	 * The metric and log tag for this outcome, such as {@code rate_limited}.
	 * @return the lower-case name
	 */
	public String tagValue() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
