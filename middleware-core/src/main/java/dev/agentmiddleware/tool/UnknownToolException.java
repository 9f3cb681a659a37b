package dev.agentmiddleware.tool;

import java.util.Collection;

/**
 * A call named a tool that is not registered.
 */
public class UnknownToolException extends ToolMiddlewareException {

	/**
	 * Creates the exception.
	 * @param toolName the name that was asked for
	 * @param knownTools the names that exist, listed in the message
	 */
	public UnknownToolException(String toolName, Collection<String> knownTools) {
		super(toolName, null, "No tool named '" + toolName + "'; known tools: " + String.join(", ", knownTools), null,
				false);
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.UNKNOWN_TOOL;
	}

}
