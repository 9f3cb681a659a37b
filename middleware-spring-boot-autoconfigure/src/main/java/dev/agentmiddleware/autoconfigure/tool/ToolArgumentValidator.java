package dev.agentmiddleware.autoconfigure.tool;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Checks bound arguments before a JSON call enters the chain, for example against Bean Validation constraints on
 * the tool method's parameters.
 */
@FunctionalInterface
interface ToolArgumentValidator {

	/**
	 * Validates the arguments of one call.
	 * @param tool the tool being called
	 * @param target the bean the method is called on
	 * @param arguments the bound arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException naming the parameter and the constraint
	 */
	void validate(RegisteredTool tool, Object target, Map<String, @Nullable Object> arguments);

}
