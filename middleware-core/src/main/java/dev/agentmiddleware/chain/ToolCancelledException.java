package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import org.jspecify.annotations.Nullable;

/**
 * The call was cancelled by its caller while it ran ({@link CallCancellation#cancel(String)}): it ends with the
 * outcome {@link CallOutcome#CANCELLED}, and no further attempt of it runs. Thrown by the layer that was waiting when
 * the cancellation came (an approval wait, a timed attempt, a retry's backoff), or in place of what the tool threw
 * once it was cancelled (an interrupted tool's {@code InterruptedException}, kept as the cause).
 * <pre>{@code
 * try {
 *     pipeline.call(invocation, cancellation);
 * }
 * catch (ToolCancelledException ex) {
 *     // nobody is waiting for this answer any more
 * }
 * }</pre>
 */
public final class ToolCancelledException extends ToolMiddlewareException {

	private final @Nullable String reason;

	/**
	 * Creates the exception.
	 * @param toolName the tool whose call was cancelled
	 * @param decidedBy the middleware that was waiting when the cancellation came, or {@code null} when the tool ran
	 * @param reason why the caller cancelled, or {@code null} when it did not say
	 * @param cause what the cancelled tool threw, or {@code null}
	 */
	public ToolCancelledException(String toolName, @Nullable String decidedBy, @Nullable String reason,
			@Nullable Throwable cause) {
		super(toolName, decidedBy, "Call of tool '" + toolName + "' was cancelled by its caller"
				+ ((reason != null && !reason.isBlank()) ? ": " + reason : ""), cause, false);
		this.reason = reason;
	}

	/**
	 * Why the caller cancelled the call.
	 * @return the reason, or {@code null} when it gave none
	 */
	public @Nullable String reason() {
		return this.reason;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.CANCELLED;
	}

}
