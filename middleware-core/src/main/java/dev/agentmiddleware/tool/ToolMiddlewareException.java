package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Base type of the failures this library raises itself, never the tool: a middleware's
 * refusal (denied, rate limited, timed out, crash not recovered), arguments that could
 * not be bound, an unknown tool, a broken middleware contract. A tool's own exceptions
 * are never wrapped in it, and a tool does not throw it: the exceptions a tool throws to
 * steer the chain are {@link ToolSignalException}s.
 *
 * <p>
 * <b>Where each one lives:</b> an exception lives in the package of the feature that
 * raises it ({@code ratelimit.ToolRateLimitedException},
 * {@code timeout.ToolTimeoutException}, {@code recovery.CrashRecoveryException},
 * {@code binding.InvalidToolArgumentsException},
 * {@code chain.ToolContractViolationException}); the ones any code may raise
 * ({@link ToolDeniedException} for any policy, {@link UnknownToolException} for any
 * registry) and the base types live here.
 *
 * <p>
 * Every message says what happened, to which tool and what to do next, so that it can be
 * shown to a person and to a model as it is. Messages never contain argument values.
 */
public abstract class ToolMiddlewareException extends RuntimeException {

	private final String toolName;

	private final @Nullable String decidedBy;

	/**
	 * Creates the exception.
	 * @param toolName the tool concerned
	 * @param decidedBy the middleware that decided the failure, or {@code null}
	 * @param message the actionable message
	 * @param cause the cause, or {@code null}
	 * @param stackTrace whether to capture a stack trace; decisions made by policy
	 * (denials, rate limits) skip it because they are expected and can be frequent
	 */
	protected ToolMiddlewareException(String toolName, @Nullable String decidedBy, String message,
			@Nullable Throwable cause, boolean stackTrace) {
		super(message, cause, true, stackTrace);
		this.toolName = java.util.Objects.requireNonNull(toolName, "toolName");
		this.decidedBy = decidedBy;
	}

	/**
	 * The tool concerned.
	 * @return the tool name
	 */
	public String toolName() {
		return this.toolName;
	}

	/**
	 * The middleware that decided this failure, such as {@code approval} or
	 * {@code rate-limit}.
	 * @return the middleware name, or {@code null} when the failure did not come from a
	 * middleware decision
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
