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
	SHORT_CIRCUITED,

	/**
	 * The arguments could not be bound to the tool's parameters; the tool did not run.
	 */
	INVALID_ARGUMENTS,

	/**
	 * The call named a tool that does not exist (a model's mistake); nothing ran, and the
	 * caller was answered with the tools that do.
	 */
	UNKNOWN_TOOL,

	/**
	 * The caller does not hold the authorities the tool requires, or is not
	 * authenticated; the tool did not run and nobody was asked to approve it.
	 */
	FORBIDDEN,

	/**
	 * The caller cancelled the call while it ran (an MCP {@code notifications/cancelled},
	 * a client that went away, a cancelled {@code CompletableFuture}): an approval wait
	 * ended, no further attempt ran, and the tool, if it had started, was interrupted
	 * where it allows that.
	 */
	CANCELLED,

	/**
	 * The call needs an answer of its client first ({@link ToolInputRequiredException}):
	 * on MCP revision {@code 2026-07-28} the request is answered {@code input_required}
	 * with what the tool asked, and the client's retry with the answers runs the call
	 * again. Neither a success nor a failure: not retried, not counted as an error, not
	 * cached.
	 */
	INPUT_REQUIRED;

	/**
	 * The outcome of a call that ended with an exception: the
	 * {@link ToolMiddlewareException#outcome() outcome} of the chain's own failures
	 * (denied, rate limited, timed out), {@link #FAILED} for anything else. For a call
	 * that returned, use the outcome the running
	 * {@code dev.agentmiddleware.chain.ToolCall} derives.
	 * @param error what the call threw
	 * @return the outcome
	 */
	public static CallOutcome ofFailure(Throwable error) {
		return (error instanceof ToolMiddlewareException middlewareException) ? middlewareException.outcome() : FAILED;
	}

	/**
	 * The metric and log tag for this outcome, such as {@code rate_limited}.
	 * @return the lower-case name
	 */
	public String tagValue() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
