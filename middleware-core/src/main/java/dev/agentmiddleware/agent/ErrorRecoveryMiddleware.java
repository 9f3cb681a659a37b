package dev.agentmiddleware.agent;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Objects;

import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * After an iteration whose last event is an error (a tool that failed, or the iteration
 * itself), tells the model what went wrong in a compact form and appends {@value #HINT}
 * to the next iteration's input.
 *
 * <p>
 * The error is formatted as its type, its message and at most
 * {@value #MAX_STACK_TRACE_CHARS} characters of its stack trace, with secrets redacted by
 * the {@link SecretRedactor}: {@code key=value} pairs with a secret key and authorization
 * tokens never reach the model. An error known only by its text (a tool's error result)
 * is given by its text.
 *
 * <p>
 * A denial ({@link ToolDeniedException}: a person said no, or a policy refused the call)
 * is a decision, not an error: the model already read why and that it should not retry
 * unless the user asks, so this middleware leaves it alone rather than suggest an
 * alternative approach. <pre>{@code
 * AgentMiddleware recovery = new ErrorRecoveryMiddleware(SecretRedactor.withDefaults());
 * }</pre>
 */
public final class ErrorRecoveryMiddleware implements AgentMiddleware {

	/** The middleware's name. */
	public static final String NAME = "error-recovery";

	/** The hint appended after the error. */
	public static final String HINT = "Consider an alternative approach if the same error occurs again.";

	/** The most characters of stack trace the model sees. */
	public static final int MAX_STACK_TRACE_CHARS = 500;

	private static final int MAX_MESSAGE_CHARS = 500;

	private final SecretRedactor redactor;

	/**
	 * Creates the middleware.
	 * @param redactor hides secrets in messages and stack traces
	 */
	public ErrorRecoveryMiddleware(SecretRedactor redactor) {
		this.redactor = Objects.requireNonNull(redactor, "redactor");
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void afterIteration(IterationContext context, IterationResult result) {
		AgentEvent last = result.lastEvent();
		if (last != null && last.isError() && !isRefusal(last.error())) {
			context.appendToNextInput(format(last) + "\n" + HINT);
		}
	}

	// A refusal (denied, forbidden) is a decision to respect, not an error to recover
	// from; a call that waits for its client's answer (input required) is not an error
	private static boolean isRefusal(@Nullable Throwable error) {
		if (error == null) {
			return false;
		}
		CallOutcome outcome = CallOutcome.ofFailure(error);
		return outcome == CallOutcome.DENIED || outcome == CallOutcome.FORBIDDEN
				|| outcome == CallOutcome.INPUT_REQUIRED;
	}

	/**
	 * Formats an error event compactly for the model.
	 * @param event an error event
	 * @return the type, message and truncated stack trace, secrets redacted
	 */
	public String format(AgentEvent event) {
		StringBuilder text = new StringBuilder();
		text.append((event.toolName() != null) ? "The tool '" + event.toolName() + "' failed" : "The last step failed");
		Throwable error = event.error();
		if (error == null) {
			text.append(": ").append(truncate(this.redactor.redactText(event.text()), MAX_MESSAGE_CHARS));
			return text.toString();
		}
		text.append(" with ").append(error.getClass().getName());
		String message = error.getMessage();
		if (message != null && !message.isBlank()) {
			text.append(": ").append(truncate(this.redactor.redactText(message), MAX_MESSAGE_CHARS));
		}
		String stackTrace = stackTrace(error);
		if (!stackTrace.isEmpty()) {
			text.append("\nStack trace (truncated):\n")
				.append(truncate(this.redactor.redactText(stackTrace), MAX_STACK_TRACE_CHARS));
		}
		return text.toString();
	}

	// The frames only: the first line repeats the type and message, which are already
	// shown.
	private static String stackTrace(Throwable error) {
		StringWriter writer = new StringWriter();
		error.printStackTrace(new PrintWriter(writer));
		String full = writer.toString().replace("\r", "");
		int firstFrame = full.indexOf("\n\tat ");
		return (firstFrame >= 0) ? full.substring(firstFrame + 1).strip() : "";
	}

	private static String truncate(@Nullable String text, int max) {
		if (text == null) {
			return "";
		}
		return (text.length() <= max) ? text : text.substring(0, max - 3) + "...";
	}

}
