package dev.agentmiddleware.tool;

import java.util.Objects;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

/**
 * A tool ready to run: its descriptor and the handler holding its own code, before any
 * middleware. <pre>{@code
 * ExecutableTool echo = new ExecutableTool(ToolDescriptor.builder("echo").safety(SafetyLevel.SAFE).build(),
 *         invocation -> invocation.argument("text"));
 * }</pre>
 *
 * @param descriptor what the tool is
 * @param handler the tool's own code
 */
public record ExecutableTool(ToolDescriptor descriptor, ToolHandler handler) {

	/**
	 * Validates the components.
	 */
	public ExecutableTool {
		Objects.requireNonNull(descriptor, "descriptor");
		Objects.requireNonNull(handler, "handler");
	}

}
