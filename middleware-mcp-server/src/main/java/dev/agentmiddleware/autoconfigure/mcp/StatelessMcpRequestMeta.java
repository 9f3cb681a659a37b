package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.function.ServerRequest;

/**
 * What the {@code _meta} of a {@code 2026-07-28} request says of its client (its
 * capabilities, info and log level, read for the {@link StatelessMcpServer}), and the
 * SDK's view of the request built from it for the handlers Spring AI's server is given.
 *
 * @param capabilities the capabilities the client declared in this request
 * @param clientInfo the client's name and version, if given
 * @param logLevel the level of the log messages the request asked for, if any
 */
record StatelessMcpRequestMeta(McpSchema.ClientCapabilities capabilities, McpSchema.@Nullable Implementation clientInfo,
		McpSchema.@Nullable LoggingLevel logLevel) {

	static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	private static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

	private static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

	static StatelessMcpRequestMeta of(McpJsonMapper jsonMapper, Map<?, ?> meta) {
		// Only what the client declared in this request counts; its requests to the
		// client are multi round-trip requests (StatelessMcpInputs)
		McpSchema.ClientCapabilities capabilities = jsonMapper.convertValue(meta.get(META_CLIENT_CAPABILITIES),
				McpSchema.ClientCapabilities.class);
		Object info = meta.get(META_CLIENT_INFO);
		McpSchema.Implementation clientInfo = (info != null)
				? jsonMapper.convertValue(info, McpSchema.Implementation.class) : null;
		Object level = meta.get(META_LOG_LEVEL);
		McpSchema.LoggingLevel logLevel = (level != null) ? jsonMapper.convertValue(level, McpSchema.LoggingLevel.class)
				: null;
		return new StatelessMcpRequestMeta(capabilities, clientInfo, logLevel);
	}

	// The SDK's view of the request, for the handlers Spring AI's server is given: the
	// principal, the base URL and
	// the call's cancellation in its transport context, as on a session's request
	McpSyncServerExchange exchange(McpJsonMapper jsonMapper, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable StatelessMcpStream stream, @Nullable CallCancellation cancellation) {
		return exchange(jsonMapper, request, principal, stream, cancellation, null);
	}

	// The round of a request that may answer input_required is in the transport context,
	// and every exchange of the revision is marked stateless
	McpSyncServerExchange exchange(McpJsonMapper jsonMapper, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable StatelessMcpStream stream, @Nullable CallCancellation cancellation,
			@Nullable McpInputRound round) {
		McpRequestContext context = McpRequestContext.ofStateless(principal,
				McpRequestBaseUrls.of(request.servletRequest()), cancellation, round);
		StatelessMcpSession session = new StatelessMcpSession(jsonMapper, stream, logLevel(), round);
		return new McpSyncServerExchange(
				new McpAsyncServerExchange(null, session, capabilities(), clientInfo(), context.transportContext()));
	}

}
