package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Which tools an MCP caller sees in its {@code tools/list}: the transport asks for every
 * tool of the server's list with the caller of the request, and leaves out the tools it
 * may not see. By default a caller sees the tools whose required authorities it holds
 * ({@code @AgentTool(authorities = ...)} and {@code agent.middleware.authorization}), and
 * an anonymous caller only the tools that require none: the same rule that refuses its
 * calls. Declare a bean of this type to decide otherwise. <pre>{@code
 * &#64;Bean
 * McpToolVisibility mcpToolVisibility() {
 *     return (toolName, caller) -> !toolName.startsWith("admin_") || (caller != null && caller.hasAuthority("ROLE_ADMIN"));
 * }
 * }</pre>
 */
@FunctionalInterface
public interface McpToolVisibility {

	/** Every caller sees every tool. */
	McpToolVisibility ALL = (toolName, caller) -> true;

	/**
	 * Whether a caller sees a tool in its {@code tools/list}.
	 * @param toolName the name of the tool
	 * @param caller the authenticated caller, or {@code null} for an anonymous one
	 * @return {@code true} to list the tool
	 */
	boolean isVisible(String toolName, @Nullable ToolPrincipal caller);

}
