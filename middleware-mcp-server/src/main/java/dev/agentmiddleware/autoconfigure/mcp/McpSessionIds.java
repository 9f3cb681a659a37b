package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * The session id a client knows ({@code Mcp-Session-Id}) in an MCP transport context: the
 * transport puts it there; it differs from the MCP SDK's own session id when the session
 * was started on another instance and recreated on this one. The MCP tool handler and the
 * {@code ChatClient} path read it back, so that per-session state (todos, grants, limits)
 * is keyed the same on every instance. <pre>{@code
 * McpSessionIds.of(exchange.transportContext(), exchange.sessionId());   // "3f1c…"
 * IdDigests.of("3f1c…");                      // 64 hex digits: what a table keeps instead of the id
 * }</pre>
 *
 * <p>
 * A session id works like a bearer secret (whoever presents it continues the session), so
 * the tables keyed by it ({@code agent_mcp_session}, {@code agent_thread_metadata}) keep
 * its {@link IdDigests#of(String) digest} instead: a lookup by the id the client sends
 * hashes it first, and a copy of the table gives nobody a session to continue.
 */
public final class McpSessionIds {

	/**
	 * The session id the client knows.
	 * @param transportContext the transport context of a request
	 * @param sdkSessionId the MCP SDK's id of the session, used when the transport put
	 * none
	 * @return the id the transport put there, else {@code sdkSessionId}
	 */
	public static @Nullable String of(McpTransportContext transportContext, @Nullable String sdkSessionId) {
		String id = McpRequestContext.of(transportContext).sessionId();
		return (id != null) ? id : sdkSessionId;
	}

	/**
	 * The base URL under which a client reached the application
	 * ({@code scheme://host:port} and the servlet's context path and mapping), in an MCP
	 * transport context: the transport puts it there from the HTTP request that carried
	 * an MCP message; the approval link provider reads it back to point at the console on
	 * the same server. Behind a proxy it is the proxy's view only when the application
	 * honours forwarded headers ({@code server.forward-headers-strategy}). <pre>{@code
	 * McpRequestBaseUrls.of(request);                        // "http://localhost:8080", as the transport puts it
	 * McpRequestBaseUrls.of(exchange.transportContext());    // "http://localhost:8080", as a handler reads it
	 * }</pre>
	 */
	public static final class McpRequestBaseUrls {

		private McpRequestBaseUrls() {
		}

		/**
		 * The base URL of an HTTP request.
		 * @param request the request
		 * @return its scheme, host, port, context path and servlet mapping, without a
		 * trailing slash
		 */
		public static String of(HttpServletRequest request) {
			String url = ServletUriComponentsBuilder.fromServletMapping(request).build().toUriString();
			return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
		}

		/**
		 * The base URL the transport recorded in an MCP transport context.
		 * @param transportContext the transport context of a request
		 * @return the base URL, or {@code null} when the transport recorded none
		 */
		public static @Nullable String of(McpTransportContext transportContext) {
			return McpRequestContext.of(transportContext).baseUrl();
		}

	}

}
