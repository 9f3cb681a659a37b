package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * The default {@link ToolErrorFormatter}, deciding by type: the chain's own failures
 * ({@link ToolMiddlewareException}) keep their actionable message; anything else is the
 * tool's own failure, including the {@link dev.agentmiddleware.tool.ToolSignalException}s
 * a tool throws, and becomes
 * {@code Tool 'x' failed: ExceptionType: first line of the message}. Secrets are
 * redacted, only the first line is kept, and the text is cut at a maximum length. A
 * refusal is two sentences: the decision with its reason, then what to do (never cut):
 * {@value #DENIAL_HINT} for a denial, such as {@code Call of tool 'delete_file'
 * was denied by approval: alice denied it: keep the logs. Do not retry this call unless the user asks you to.},
 * and {@value #FORBIDDEN_HINT} for a call refused for missing authorities, since asking
 * again does not grant them.
 */
final class DefaultToolErrorFormatter implements ToolErrorFormatter {

	/** The hint appended to denials. */
	public static final String DENIAL_HINT = "Do not retry this call unless the user asks you to.";

	/**
	 * The hint appended to calls refused for missing authorities: asking again does not
	 * grant them.
	 */
	public static final String FORBIDDEN_HINT = "Do not retry this call.";

	private final SecretRedactor redactor;

	private final int maxLength;

	/**
	 * Creates the formatter.
	 * @param redactor hides secrets in messages
	 * @param maxLength the longest text returned
	 */
	public DefaultToolErrorFormatter(SecretRedactor redactor, int maxLength) {
		if (maxLength < 40) {
			throw new IllegalArgumentException("maxLength must be at least 40, was " + maxLength);
		}
		this.redactor = redactor;
		this.maxLength = maxLength;
	}

	@Override
	public String format(String toolName, Throwable error) {
		String text;
		CallOutcome outcome = CallOutcome.ofFailure(error);
		if (outcome == CallOutcome.FORBIDDEN) {
			return twoSentences(error, FORBIDDEN_HINT);
		}
		else if (outcome == CallOutcome.DENIED) {
			return twoSentences(error, DENIAL_HINT);
		}
		else if (error instanceof ToolMiddlewareException) {
			text = firstLine(error.getMessage());
		}
		else {
			String message = firstLine(error.getMessage());
			text = "Tool '" + toolName + "' failed: " + error.getClass().getSimpleName()
					+ (message.isEmpty() ? "" : ": " + message);
		}
		text = this.redactor.redactText(text);
		return (text.length() <= this.maxLength) ? text : text.substring(0, this.maxLength - 1) + "…";
	}

	// What was decided and why, then what to do; the hint is never cut
	private String twoSentences(Throwable error, String hint) {
		String decision = sentence(this.redactor.redactText(firstLine(error.getMessage())));
		int room = this.maxLength - hint.length() - 1;
		if (decision.length() > room) {
			decision = decision.substring(0, Math.max(0, room - 2)) + "….";
		}
		return decision + " " + hint;
	}

	private static String sentence(String text) {
		if (text.isEmpty() || text.endsWith(".") || text.endsWith("!") || text.endsWith("?")) {
			return text;
		}
		return text + ".";
	}

	private static String firstLine(String message) {
		if (message == null) {
			return "";
		}
		int end = message.indexOf('\n');
		return ((end >= 0) ? message.substring(0, end) : message).strip();
	}

}
