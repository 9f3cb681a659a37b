package dev.agentmiddleware.tool;

/**
 * Where a tool call came from.
 */
public enum InvocationSource {

	/** A direct Java call of the tool method. */
	JAVA,

	/** Spring AI's tool-calling loop (a {@code ChatClient} or a {@code ToolCallback}). */
	SPRING_AI,

	/** An MCP client, through the MCP server. */
	MCP,

	/** Anything else, such as a test or a custom integration. */
	OTHER

}
