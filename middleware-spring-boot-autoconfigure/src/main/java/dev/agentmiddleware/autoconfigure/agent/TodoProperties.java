package dev.agentmiddleware.autoconfigure.agent;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the todo middleware, under {@code agent.middleware.todo}.
 */
@ConfigurationProperties(TodoProperties.PREFIX)
public class TodoProperties implements ValidatedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.todo";

	/** Whether to contribute the write_todos, read_todos and update_todo tools. */
	private boolean enabled = true;

	/** The most items a todo list may hold. */
	private int maxItems = 100;

	/** The most characters of a todo item's text or id. */
	private int maxTextLength = 1000;

	private final Mcp mcp = new Mcp();

	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("maxItems", this.maxItems, 1).atLeast("maxTextLength", this.maxTextLength, 1);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxItems() {
		return this.maxItems;
	}

	public void setMaxItems(int maxItems) {
		this.maxItems = maxItems;
	}

	public int getMaxTextLength() {
		return this.maxTextLength;
	}

	public void setMaxTextLength(int maxTextLength) {
		this.maxTextLength = maxTextLength;
	}

	public Mcp getMcp() {
		return this.mcp;
	}

	/**
	 * Whether the todo tools are published by the MCP server too. They always join the
	 * {@code ChatClient} loop, where the agent's own middleware keeps the list; an MCP
	 * client plans with tools of its own, so by default the MCP server's tool list leaves
	 * them out.
	 */
	public static class Mcp {

		/** Whether to publish the todo tools in the MCP server's tool list. */
		private boolean enabled;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
