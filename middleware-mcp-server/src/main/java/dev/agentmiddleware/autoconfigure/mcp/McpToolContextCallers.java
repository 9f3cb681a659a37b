package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.springai.ToolContextCallers;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.util.ClassUtils;

/**
 * The caller of a Spring AI tool call made by an MCP client: Spring AI's MCP server puts
 * the request's {@link McpSyncServerExchange} (or, for a stateless server, its
 * {@link McpTransportContext}) in the tool context under {@code exchange}; its session id
 * (the one the client knows, the same on every instance) becomes the call's session, the
 * principal the transport recorded its principal, and the exchange an invocation
 * attribute ({@link McpInvocationAttributes#EXCHANGE}). Listed in this module's
 * {@code META-INF/spring.factories}.
 */
public final class McpToolContextCallers implements ToolContextCallers {

	private static final boolean MCP_PRESENT = ClassUtils.isPresent(
			"io.modelcontextprotocol.server.McpSyncServerExchange", McpToolContextCallers.class.getClassLoader());

	@Override
	public @Nullable Caller of(Map<String, Object> context, @Nullable ToolPrincipal principal) {
		Object exchange = context.get(McpToolUtils.TOOL_CONTEXT_MCP_EXCHANGE_KEY);
		return (MCP_PRESENT && exchange != null) ? Sdk.caller(exchange, principal) : null;
	}

	/**
	 * Kept apart so that the MCP SDK classes load only when the SDK is present.
	 */
	private static final class Sdk {

		static @Nullable Caller caller(Object exchange, @Nullable ToolPrincipal principal) {
			if (exchange instanceof McpSyncServerExchange sync) {
				McpRequestContext request = McpRequestContext.of(sync.transportContext());
				return new Caller(InvocationSource.MCP,
						(request.sessionId() != null) ? request.sessionId() : sync.sessionId(),
						(principal != null) ? principal : request.principal(),
						(builder) -> builder.attribute(McpInvocationAttributes.EXCHANGE, sync));
			}
			if (exchange instanceof McpTransportContext transportContext) {
				return new Caller(InvocationSource.MCP, null,
						(principal != null) ? principal : McpRequestContext.of(transportContext).principal(),
						(builder) -> {
						});
			}
			return null;
		}

	}

}
