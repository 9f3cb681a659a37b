package dev.agentmiddleware.timeout;

import java.time.Duration;

import dev.agentmiddleware.internal.DurationText;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * The call took longer than its timeout and was abandoned; the tool's thread was
 * interrupted.
 */
public class ToolTimeoutException extends ToolMiddlewareException {

	private final Duration timeout;

	/**
	 * Creates the exception.
	 * @param toolName the tool that took too long
	 * @param decidedBy the middleware that enforced the timeout
	 * @param timeout the timeout that was exceeded
	 */
	public ToolTimeoutException(String toolName, String decidedBy, Duration timeout) {
		super(toolName, decidedBy, "Tool '" + toolName + "' timed out after " + DurationText.of(timeout)
				+ "; try again later or with a smaller request", null, false);
		this.timeout = timeout;
	}

	/**
	 * The timeout that was exceeded.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.timeout;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.TIMED_OUT;
	}

}
