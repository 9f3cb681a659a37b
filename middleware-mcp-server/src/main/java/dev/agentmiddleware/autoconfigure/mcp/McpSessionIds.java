package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.WebUtils;

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

		// The last base URL built, with what it was built from: a server is reached under
		// one name or a few, so most requests find theirs here instead of building it
		// again (a URI builder and the decoding of the request URI on every request)
		private static volatile @Nullable Built last;

		private McpRequestBaseUrls() {
		}

		/**
		 * The base URL of an HTTP request.
		 * @param request the request
		 * @return its scheme, host, port, context path and servlet mapping, without a
		 * trailing slash
		 */
		public static String of(HttpServletRequest request) {
			Source source = Source.of(request);
			if (source == null) {
				return build(request);
			}
			Built built = last;
			if (built == null || !built.source().equals(source)) {
				built = new Built(source, build(request));
				last = built;
			}
			return built.url();
		}

		private static String build(HttpServletRequest request) {
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

		/**
		 * Everything {@code ServletUriComponentsBuilder.fromServletMapping} reads of a
		 * request (its path within the servlet mapping decoded with the request's
		 * character encoding), so that two requests with the same source have the same
		 * base URL.
		 */
		private record Source(String scheme, String host, int port, String contextPath, String servletPath,
				@Nullable String pathInfo, String requestUri, @Nullable String characterEncoding) {

			/**
			 * The source of a request's base URL.
			 * @param request the request
			 * @return its source, or {@code null} when the builder reads more of it: the
			 * paths of an included request, or a servlet path ending with a slash (which
			 * it removes on WebSphere)
			 */
			static @Nullable Source of(HttpServletRequest request) {
				String servletPath = request.getServletPath();
				if ((servletPath.length() > 1 && servletPath.endsWith("/"))
						|| request.getAttribute(WebUtils.INCLUDE_REQUEST_URI_ATTRIBUTE) != null
						|| request.getAttribute(WebUtils.INCLUDE_CONTEXT_PATH_ATTRIBUTE) != null
						|| request.getAttribute(WebUtils.INCLUDE_SERVLET_PATH_ATTRIBUTE) != null) {
					return null;
				}
				return new Source(request.getScheme(), request.getServerName(), request.getServerPort(),
						request.getContextPath(), servletPath, request.getPathInfo(), request.getRequestURI(),
						request.getCharacterEncoding());
			}

		}

		private record Built(Source source, String url) {

		}

	}

}
