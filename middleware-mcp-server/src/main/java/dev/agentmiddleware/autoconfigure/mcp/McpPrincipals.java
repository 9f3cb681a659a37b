package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * The caller's {@link ToolPrincipal} in an MCP transport context: the transport puts it
 * there from the request's authenticated user; the MCP tool handler and the
 * {@code ChatClient} path read it back. <pre>{@code
 * ToolPrincipal principal = McpPrincipals.of(exchange.transportContext());   // null for an anonymous caller
 * }</pre>
 */
public final class McpPrincipals {

	private McpPrincipals() {
	}

	/**
	 * The caller's principal in an MCP transport context.
	 * @param transportContext the transport context of a request
	 * @return the principal the transport put there, or {@code null} for an anonymous
	 * caller
	 */
	public static @Nullable ToolPrincipal of(McpTransportContext transportContext) {
		return McpRequestContext.of(transportContext).principal();
	}

}
