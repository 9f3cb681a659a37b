package dev.agentmiddleware.autoconfigure.internal;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * The session id a client knows ({@code Mcp-Session-Id}) in an MCP transport context: the transport puts it under
 * {@link #KEY}; it differs from the MCP SDK's own session id when the session was started on another instance and
 * recreated on this one. The MCP tool handler and the {@code ChatClient} path read it back, so that per-session
 * state (todos, grants, limits) is keyed the same on every instance.
 * <pre>{@code
 * McpTransportContext context = McpTransportContext.create(Map.of(McpSessionIds.KEY, "3f1c…"));
 * McpSessionIds.of(context, exchange.sessionId());   // "3f1c…"
 * }</pre>
 */
public final class McpSessionIds {

	/** The key of the client's session id in the MCP transport context. */
	public static final String KEY = "agent.session";

	private McpSessionIds() {
	}

	/**
	 * The session id the client knows.
	 * @param transportContext the transport context of a request
	 * @param sdkSessionId the MCP SDK's id of the session, used when the transport put none
	 * @return the id the transport put under {@link #KEY}, else {@code sdkSessionId}
	 */
	public static @Nullable String of(McpTransportContext transportContext, @Nullable String sdkSessionId) {
		return (transportContext.get(KEY) instanceof String id) ? id : sdkSessionId;
	}

}
