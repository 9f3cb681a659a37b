package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.tool.InvocationAttribute;
import io.modelcontextprotocol.server.McpSyncServerExchange;

/**
 * The attributes a call that came over MCP carries on its
 * {@link dev.agentmiddleware.tool.ToolInvocation}.
 *
 * <p>
 * A middleware that needs to talk back to the MCP client during a call (approval through
 * MCP elicitation, say) reads the exchange from the invocation: <pre>{@code
 * McpSyncServerExchange exchange = invocation.attribute(McpInvocationAttributes.EXCHANGE);
 * if (exchange != null && exchange.getClientCapabilities().elicitation() != null) {
 *     exchange.createElicitation(request);
 * }
 * }</pre>
 */
public final class McpInvocationAttributes {

	/**
	 * The MCP exchange of the request that made the call; absent for calls that did not
	 * come over MCP.
	 */
	public static final InvocationAttribute<McpSyncServerExchange> EXCHANGE = InvocationAttribute.of("mcp.exchange",
			McpSyncServerExchange.class);

	private McpInvocationAttributes() {
	}

}
