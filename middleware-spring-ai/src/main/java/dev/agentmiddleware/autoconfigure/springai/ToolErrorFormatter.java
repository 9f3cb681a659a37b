package dev.agentmiddleware.autoconfigure.springai;

/**
 * Turns a failed tool call into the short text the model (or the MCP client) reads
 * instead of a result.
 *
 * <p>
 * Implementations must never include a stack trace or a secret, and should say what the
 * model can do next. Declare a bean of this type to replace the default formatter
 * (package-private {@code DefaultToolErrorFormatter}). <pre>{@code
 * &#64;Bean
 * ToolErrorFormatter toolErrorFormatter() {
 *     return (toolName, error) -> "The tool " + toolName + " is unavailable right now.";
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ToolErrorFormatter {

	/**
	 * Formats a failure.
	 * @param toolName the tool that was called
	 * @param error the failure: a
	 * {@link dev.agentmiddleware.tool.ToolMiddlewareException} from the chain or the
	 * tool's own exception
	 * @return short text for the model
	 */
	String format(String toolName, Throwable error);

}
