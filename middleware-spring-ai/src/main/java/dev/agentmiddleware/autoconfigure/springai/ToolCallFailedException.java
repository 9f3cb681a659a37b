package dev.agentmiddleware.autoconfigure.springai;

/**
 * Carries the formatted failure text of a tool call to an MCP client, which shows it as
 * an error result. Has no cause and no stack trace, so nothing but that text can leak.
 */
final class ToolCallFailedException extends RuntimeException {

	ToolCallFailedException(String text) {
		super(text, null, false, false);
	}

}
