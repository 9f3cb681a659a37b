package dev.agentmiddleware.autoconfigure.tool;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Checks bound arguments before a JSON call enters the chain, for example against Bean
 * Validation constraints on the tool method's parameters.
 */
@FunctionalInterface
interface ToolArgumentValidator {

	/**
	 * Validates the arguments of one call.
	 * @param tool the tool being called
	 * @param target the bean the method is called on
	 * @param arguments the bound arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException naming the
	 * parameter and the constraint
	 */
	void validate(RegisteredTool tool, Object target, Map<String, @Nullable Object> arguments);

	/**
	 * Whether this validator checks anything of a tool's calls. A tool whose calls it
	 * does not check is bound as a function of the arguments as sent alone, so that the
	 * result cache answers a repeated call without binding it again; a tool whose calls
	 * it checks is bound and checked on every call, cache hits too (a constraint such as
	 * {@code @Future}, or one that looks something up, can refuse the same arguments
	 * later).
	 * @param tool the tool
	 * @param target the bean the method is called on
	 * @return {@code true} (the default) if {@link #validate} may refuse some call of the
	 * tool
	 */
	default boolean checks(RegisteredTool tool, Object target) {
		return true;
	}

}
