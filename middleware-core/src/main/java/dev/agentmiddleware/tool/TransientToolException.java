package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a tool for a failure that is likely to go away on its own (a dropped
 * connection, a busy downstream service). Retry middleware retries it by default for
 * read-only and idempotent tools. <pre>{@code
 * catch (SocketTimeoutException ex) {
 *     throw new TransientToolException("weather service did not answer", ex);
 * }
 * }</pre>
 */
public class TransientToolException extends ToolSignalException {

	/**
	 * Creates the exception.
	 * @param message what failed
	 */
	public TransientToolException(String message) {
		this(message, null);
	}

	/**
	 * Creates the exception.
	 * @param message what failed
	 * @param cause the underlying failure, or {@code null}
	 */
	public TransientToolException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
