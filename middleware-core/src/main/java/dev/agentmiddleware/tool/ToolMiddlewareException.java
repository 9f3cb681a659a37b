package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Base type of the failures the chain itself reports: denials, rate limits, timeouts, invalid arguments and
 * broken middleware contracts. A tool's own exceptions are never wrapped in it.
 *
 * <p>Every message says what happened, to which tool and what to do next, so that it can be shown to a person
 * and to a model as it is. Messages never contain argument values.
 */
public abstract class ToolMiddlewareException extends RuntimeException {

	private final @Nullable String toolName;

	private final @Nullable String decidedBy;

	/**
	 * Creates the exception.
	 * @param toolName the tool concerned, or {@code null} when the thrower does not know it
	 * @param decidedBy the middleware that decided the failure, or {@code null}
	 * @param message the actionable message
	 * @param cause the cause, or {@code null}
	 * @param stackTrace whether to capture a stack trace; decisions made by policy (denials, rate limits) skip
	 * it because they are expected and can be frequent
	 */
	protected ToolMiddlewareException(@Nullable String toolName, @Nullable String decidedBy, String message,
			@Nullable Throwable cause, boolean stackTrace) {
		super(message, cause, true, stackTrace);
		this.toolName = toolName;
		this.decidedBy = decidedBy;
	}

	/**
	 * The tool concerned.
	 * @return the tool name, or {@code null} when unknown
	 */
	public @Nullable String toolName() {
		return this.toolName;
	}

	/**
	 * The middleware that decided this failure, such as {@code approval} or {@code rate-limit}.
	 * @return the middleware name, or {@code null} when the failure did not come from a middleware decision
	 */
	public @Nullable String decidedBy() {
		return this.decidedBy;
	}

	/**
	 * How a call that ends with this failure is reported to observers and metrics.
	 * @return the outcome
	 */
	public CallOutcome outcome() {
		return CallOutcome.FAILED;
	}

}
