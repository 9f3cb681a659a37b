package dev.agentmiddleware.timeout;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;

import org.jspecify.annotations.Nullable;

/**
 * A timed call failed for a reason of the timeout layer's own, other than the timeout
 * itself: its threads were all busy, it was shut down, or the caller was interrupted
 * while waiting. A timeout is reported with
 * {@link dev.agentmiddleware.timeout.ToolTimeoutException}. <pre>{@code
 * catch (TimedCallException ex) {
 *     if (ex.reason() == TimedCallException.Reason.SATURATED) {
 *         // back off: too many timed tool calls at once
 *     }
 * }
 * }</pre>
 */
public class TimedCallException extends ToolMiddlewareException {

	private final Reason reason;

	/**
	 * Creates the exception.
	 * @param toolName the tool whose call failed
	 * @param decidedBy the middleware that failed it
	 * @param reason why
	 * @param message the actionable message
	 * @param cause the underlying failure, or {@code null}
	 */
	public TimedCallException(String toolName, String decidedBy, Reason reason, String message,
			@Nullable Throwable cause) {
		super(toolName, decidedBy, message, cause, reason == Reason.INTERRUPTED);
		this.reason = reason;
	}

	/**
	 * Why the call failed.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

	/**
	 * How the call is reported: {@link CallOutcome#CANCELLED} when its caller's thread
	 * was interrupted (the caller gave up on it, as with a
	 * {@link dev.agentmiddleware.chain.CallCancellation}), else
	 * {@link CallOutcome#FAILED}.
	 * @return the outcome
	 */
	@Override
	public CallOutcome outcome() {
		return (this.reason == Reason.INTERRUPTED) ? CallOutcome.CANCELLED : CallOutcome.FAILED;
	}

	/**
	 * Why a timed call failed without timing out.
	 */
	public enum Reason {

		/**
		 * Every thread for timed calls was busy and the queue was full; the tool did not
		 * run.
		 */
		SATURATED,

		/** The timeout middleware was closed (the application is shutting down). */
		SHUT_DOWN,

		/**
		 * The calling thread was interrupted while it waited; the attempt was cancelled.
		 */
		INTERRUPTED

	}

}
