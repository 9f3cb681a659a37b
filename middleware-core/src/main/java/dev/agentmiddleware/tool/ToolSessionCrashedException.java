package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a tool when the session it drives (a browser, a shell, a remote connection)
 * has crashed and must be reset before the tool can work again. Crash-recovery middleware
 * resets the session and retries the call once. <pre>{@code
 * if (!browser.isAlive()) {
 *     throw new ToolSessionCrashedException("browser process exited");
 * }
 * }</pre>
 */
public class ToolSessionCrashedException extends ToolSignalException {

	/**
	 * Creates the exception.
	 * @param message what crashed
	 */
	public ToolSessionCrashedException(String message) {
		this(message, null);
	}

	/**
	 * Creates the exception.
	 * @param message what crashed
	 * @param cause the underlying failure, or {@code null}
	 */
	public ToolSessionCrashedException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
