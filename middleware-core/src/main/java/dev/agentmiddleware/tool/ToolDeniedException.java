package dev.agentmiddleware.tool;

/**
 * A middleware refused the call; the tool did not run. Never retried. <pre>{@code
 * throw new ToolDeniedException("delete_file", "approval", "the approver said no: keep the logs");
 * }</pre>
 */
public class ToolDeniedException extends ToolMiddlewareException {

	private final String reason;

	/**
	 * Creates the exception.
	 * @param toolName the tool that was refused
	 * @param decidedBy the middleware that refused it
	 * @param reason why, in words a person and a model can act on
	 */
	public ToolDeniedException(String toolName, String decidedBy, String reason) {
		super(toolName, decidedBy, "Call of tool '" + toolName + "' was denied by " + decidedBy + ": " + reason, null,
				false);
		this.reason = reason;
	}

	/**
	 * Creates the exception with a message of its own, for a kind of refusal that words
	 * its message differently.
	 * @param toolName the tool that was refused
	 * @param decidedBy the middleware that refused it
	 * @param reason why, in words a person and a model can act on
	 * @param message the whole message
	 */
	protected ToolDeniedException(String toolName, String decidedBy, String reason, String message) {
		super(toolName, decidedBy, message, null, false);
		this.reason = reason;
	}

	/**
	 * Why the call was refused.
	 * @return the reason
	 */
	public String reason() {
		return this.reason;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.DENIED;
	}

}
