package dev.agentmiddleware.approval;

import java.util.Map;

import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * Binds and validates arguments that an approver changed, exactly like the arguments of a
 * new call of the same tool (JSON schema, Java types, Bean Validation), so that an edit
 * cannot slip past what a model's call could not. The Spring layer binds through the tool
 * registry.
 */
@FunctionalInterface
public interface ArgumentsBinder {

	/** Refuses every change: used when the application cannot bind JSON arguments. */
	ArgumentsBinder NONE = (tool, json) -> {
		throw new IllegalStateException("changed arguments cannot be checked for tool '" + tool.name() + "'");
	};

	/**
	 * Binds changed arguments.
	 * @param tool the tool of the approval request; changed arguments never change the
	 * tool
	 * @param argumentsJson the complete new arguments object as JSON
	 * @return the bound arguments by parameter name
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException naming the
	 * parameter and what was expected
	 */
	Map<String, @Nullable Object> bind(ToolDescriptor tool, String argumentsJson);

}
