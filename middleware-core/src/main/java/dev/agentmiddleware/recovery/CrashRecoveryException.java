package dev.agentmiddleware.recovery;

import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * A tool's session crashed and crash recovery could not save the call: no session reset is configured, the reset
 * failed, or the tool crashed again after its session was reset. The crash is kept as the cause (or, when the
 * reset failed, the reset's failure is the cause and the crash is suppressed).
 * <pre>{@code
 * catch (CrashRecoveryException ex) {
 *     if (ex.reason() == CrashRecoveryException.Reason.CRASHED_AGAIN) {
 *         alertOperations(ex.toolName());
 *     }
 * }
 * }</pre>
 */
public class CrashRecoveryException extends ToolMiddlewareException {

	private final Reason reason;

	/**
	 * Creates the exception.
	 * @param toolName the tool that crashed
	 * @param decidedBy the middleware that gave up
	 * @param reason why recovery failed
	 * @param message the actionable message
	 * @param cause the crash, or the reset's failure
	 */
	public CrashRecoveryException(String toolName, String decidedBy, Reason reason, String message, Throwable cause) {
		super(toolName, decidedBy, message, cause, true);
		this.reason = reason;
	}

	/**
	 * Why recovery failed.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

	/**
	 * Why crash recovery could not save a call.
	 */
	public enum Reason {

		/** No {@link ToolSessionReset} is configured; the call was not retried. */
		NO_SESSION_RESET,

		/** The {@link ToolSessionReset} failed; the call was not retried. */
		RESET_FAILED,

		/** The tool crashed again on its one retry after the reset. */
		CRASHED_AGAIN

	}

}
