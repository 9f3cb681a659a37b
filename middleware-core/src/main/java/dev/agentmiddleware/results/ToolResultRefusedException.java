package dev.agentmiddleware.results;

import dev.agentmiddleware.tool.ToolDeniedException;

/**
 * A result guard refused a tool's result: the tool ran, but what it returned is not handed to the caller. Observed
 * and counted as {@code denied}, decided by the guard; never retried.
 * <pre>{@code
 * throw new ToolResultRefusedException("read_file", "pii", "the result holds a credit card number");
 * }</pre>
 */
public class ToolResultRefusedException extends ToolDeniedException {

	/**
	 * Creates the exception.
	 * @param toolName the tool whose result was refused
	 * @param decidedBy the guard that refused it, such as {@code results} for the size limit
	 * @param reason why, in words a person and a model can act on
	 */
	public ToolResultRefusedException(String toolName, String decidedBy, String reason) {
		super(toolName, decidedBy, reason,
				"The result of tool '" + toolName + "' was refused by " + decidedBy + ": " + reason);
	}

}
