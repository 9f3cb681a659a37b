package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * A middleware broke the chain's contract, for example by answering with a result the tool's callers cannot
 * accept. The message names the middleware so that its author can fix it.
 */
public class ToolContractViolationException extends ToolMiddlewareException {

	/**
	 * Creates the exception.
	 * @param toolName the tool whose pipeline holds the middleware
	 * @param middleware the offending middleware
	 * @param problem what it did wrong
	 */
	public ToolContractViolationException(String toolName, String middleware, String problem) {
		super(toolName, middleware, "Middleware '" + middleware + "' broke the contract of tool '" + toolName + "': "
				+ problem, null, true);
	}

}
