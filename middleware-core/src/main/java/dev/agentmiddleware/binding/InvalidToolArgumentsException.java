package dev.agentmiddleware.binding;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of a call could not be bound to the tool's parameters: malformed JSON, a
 * missing required parameter, a wrong type, an unknown parameter, or a payload over the
 * size or depth limits. Raised by the pipeline's argument-binding step, inside
 * observation and logging (which report it as {@link CallOutcome#INVALID_ARGUMENTS}) and
 * outside every other middleware and the tool, which never see such a call. Never
 * retried. <pre>{@code
 * Invalid arguments for tool 'get_weather', parameter 'days': expected an integer but got "three"
 * }</pre>
 */
public class InvalidToolArgumentsException extends ToolMiddlewareException {

	private final @Nullable String parameter;

	private final String problem;

	/**
	 * Creates the exception.
	 * @param toolName the tool called
	 * @param parameter the offending parameter, or {@code null} when the problem is the
	 * payload as a whole
	 * @param problem what was expected and what was found
	 */
	public InvalidToolArgumentsException(String toolName, @Nullable String parameter, String problem) {
		super(toolName, null, "Invalid arguments for tool '" + toolName + "'"
				+ ((parameter != null) ? ", parameter '" + parameter + "'" : "") + ": " + problem, null, false);
		this.parameter = parameter;
		this.problem = problem;
	}

	/**
	 * The offending parameter.
	 * @return the parameter name, or {@code null} when the payload as a whole is at fault
	 */
	public @Nullable String parameter() {
		return this.parameter;
	}

	/**
	 * What was expected and what was found.
	 * @return the problem
	 */
	public String problem() {
		return this.problem;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.INVALID_ARGUMENTS;
	}

}
