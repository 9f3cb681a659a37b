package dev.agentmiddleware.agent;

import java.util.Objects;

/**
 * A tool call the model asked for, in a model-neutral form.
 *
 * @param id the id the model gave the call, which its answer must carry
 * @param name the tool name
 * @param arguments the arguments as the model sent them (JSON text)
 */
public record ToolCallRequest(String id, String name, String arguments) {

	/**
	 * Validates the components.
	 */
	public ToolCallRequest {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(arguments, "arguments");
	}

}
