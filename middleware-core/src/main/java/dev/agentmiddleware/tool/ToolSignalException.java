package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Base type of the exceptions a <em>tool</em> throws to tell the chain how to treat its
 * failure: a {@link TransientToolException} is worth retrying, a
 * {@link ToolSessionCrashedException} asks for the session to be reset. They are the
 * tool's own failures, so they propagate unchanged like any other exception of the tool
 * and reach the model as {@code Tool 'x' failed: …}; they are not
 * {@link ToolMiddlewareException}s, which the chain raises itself. <pre>{@code
 * catch (SocketTimeoutException ex) {
 *     throw new TransientToolException("weather service did not answer", ex);
 * }
 * }</pre>
 */
public abstract class ToolSignalException extends RuntimeException {

	/**
	 * Creates the exception.
	 * @param message what failed
	 * @param cause the underlying failure, or {@code null}
	 */
	protected ToolSignalException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
