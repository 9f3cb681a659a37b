package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * The caller's {@link ToolPrincipal} in an MCP transport context: the transport puts it
 * under {@link #KEY} from the request's authenticated user; the MCP tool handler and the
 * {@code ChatClient} path read it back. <pre>{@code
 * McpTransportContext context = McpTransportContext.create(Map.of(McpPrincipals.KEY, principal));
 * McpPrincipals.of(context);   // principal
 * }</pre>
 */
public final class McpPrincipals {

	/**
	 * The key of the caller's principal (name and authorities) in the MCP transport
	 * context.
	 */
	public static final String KEY = "agent.principal";

	private McpPrincipals() {
	}

	/**
	 * The caller's principal in an MCP transport context.
	 * @param transportContext the transport context of a request
	 * @return the principal the transport put under {@link #KEY}, or {@code null} for an
	 * anonymous caller
	 */
	public static @Nullable ToolPrincipal of(McpTransportContext transportContext) {
		return ToolPrincipals.of(transportContext.get(KEY));
	}

}
