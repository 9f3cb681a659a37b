package dev.agentmiddleware.recovery;

import dev.agentmiddleware.recovery.CrashRecoveryMiddleware.CrashRecoveryException;
import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Resets the session a tool drives after it crashed, typically by closing it so that the
 * next call opens a fresh one. {@link CrashRecoveryMiddleware} calls it once per crash,
 * on the calling thread, before it retries the call.
 *
 * <p>
 * Called concurrently for different sessions; it must be thread-safe. An exception from
 * it fails the call with a {@link CrashRecoveryException} ({@code RESET_FAILED}) and the
 * call is not retried. <pre>{@code
 * ToolSessionReset reset = (invocation, crash) -> browsers.close(invocation.sessionId());
 * }</pre>
 */
@FunctionalInterface
public interface ToolSessionReset {

	/**
	 * Resets the session of a crashed call.
	 * @param invocation the call that crashed; its {@link ToolInvocation#sessionId()
	 * session id} (possibly {@code null}) says which session
	 * @param crash the failure that was recognised as a crash
	 * @throws Exception if the session could not be reset
	 */
	void reset(ToolInvocation invocation, Throwable crash) throws Exception;

}
