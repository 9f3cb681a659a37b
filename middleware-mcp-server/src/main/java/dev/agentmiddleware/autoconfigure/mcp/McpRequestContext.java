package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the transport knows of one MCP request and its handlers read back: the one value
 * it puts in the MCP SDK's transport context of the request, under one typed
 * {@link #KEY}. Each path that hands a request to the SDK builds it once: a session's
 * request ({@link #ofSession}), a request of MCP {@code 2026-07-28}
 * ({@link #ofStateless}), the call of a {@code 2026-07-28} task ({@link #ofTask}); a
 * handler reads it once ({@link #of}). <pre>{@code
 * McpRequestContext request = McpRequestContext.of(exchange.transportContext());
 * request.principal();      // the caller the transport saw, null when anonymous
 * request.cancellation();   // what the client's notifications/cancelled cancels
 * }</pre>
 *
 * @param sessionId the session id the client knows ({@code Mcp-Session-Id}), which
 * differs from the SDK's own when the session was started on another instance;
 * {@code null} without a session
 * @param principal the caller (name and authorities), {@code null} when anonymous
 * @param baseUrl the base URL the client reached the server under, for links back to it
 * (the approval console), {@code null} when unknown
 * @param cancellation the cancellation of the request's call, which the client cancels
 * ({@code notifications/cancelled}, a closed stream); {@code null} for a message that
 * runs no call
 * @param serverRequests what the request's tool asks its client on the request's stream,
 * so that it can be withdrawn ({@link McpToolClient}); {@code null} without a stream of a
 * session
 * @param trace the caller's trace context in the HTTP headers, for a {@code tools/call}
 * whose {@code _meta} has none; {@code null} when there is none
 * @param stateless whether the request is of MCP {@code 2026-07-28}: the approval link by
 * URL elicitation is not sent through it, and a missing client capability fails it with
 * {@code -32021}
 * @param round the round of a {@code 2026-07-28} request that may answer
 * {@code input_required}, {@code null} otherwise
 */
record McpRequestContext(@Nullable String sessionId, @Nullable ToolPrincipal principal, @Nullable String baseUrl,
		@Nullable CallCancellation cancellation, @Nullable McpServerRequests serverRequests,
		@Nullable McpTraceContext trace, boolean stateless, @Nullable McpInputRound round) {

	/** The key of the value in the MCP transport context. */
	static final McpTransportContextKey<McpRequestContext> KEY = McpTransportContextKey
		.of(McpRequestContext.class.getName(), McpRequestContext.class);

	// What a handler reads in the context of a request that did not come through this
	// transport
	private static final McpRequestContext NONE = new McpRequestContext(null, null, null, null, null, null, false,
			null);

	/**
	 * The value of a message of a {@code 2025-11-25} (or older) session.
	 * @param sessionId the session id the client knows
	 * @param request the HTTP request that carried the message: its authenticated user
	 * (Spring Security's {@code Authentication} behind {@code getUserPrincipal()}), base
	 * URL and trace headers
	 * @param cancellation the cancellation of a request's call, {@code null} for a
	 * notification or a response
	 * @param stream the request's response stream, {@code null} for a notification or a
	 * response
	 * @return the value
	 */
	static McpRequestContext ofSession(String sessionId, HttpServletRequest request,
			@Nullable CallCancellation cancellation, @Nullable McpSseStream stream) {
		// The base URL is read now, not when a handler asks: a call can outlive its HTTP
		// request (its client went away) and still ask for an approval link, when the
		// container has recycled the request
		return new McpRequestContext(sessionId, ToolPrincipals.of(request.getUserPrincipal()),
				McpRequestBaseUrls.of(request), cancellation, (stream != null) ? new McpServerRequests(stream) : null,
				McpTraceContext.ofHeaders(request::getHeader), false, null);
	}

	/**
	 * The value of a request of MCP {@code 2026-07-28}.
	 * @param principal the caller, {@code null} when anonymous
	 * @param baseUrl the base URL of the HTTP request ({@link McpRequestBaseUrls#of})
	 * @param cancellation the cancellation of a {@code tools/call}, {@code null}
	 * otherwise
	 * @param round the round of a request that may answer {@code input_required}, else
	 * {@code null}
	 * @return the value
	 */
	static McpRequestContext ofStateless(@Nullable ToolPrincipal principal, String baseUrl,
			@Nullable CallCancellation cancellation, @Nullable McpInputRound round) {
		return new McpRequestContext(null, principal, baseUrl, cancellation, null, null, true, round);
	}

	/**
	 * The value of the call of a {@code 2026-07-28} task, which runs after the request
	 * that created it was answered.
	 * @param principal the caller of the request that created it, {@code null} when
	 * anonymous
	 * @param baseUrl the base URL of that request
	 * @param cancellation the task's cancellation
	 * @return the value
	 */
	static McpRequestContext ofTask(@Nullable ToolPrincipal principal, String baseUrl, CallCancellation cancellation) {
		return new McpRequestContext(null, principal, baseUrl, cancellation, null, null, false, null);
	}

	/**
	 * The value the transport put in a request's transport context.
	 * @param context the transport context, {@code null} when the SDK has none
	 * @return the value; without one (the request did not come through this transport), a
	 * value with nothing in it
	 */
	static McpRequestContext of(@Nullable McpTransportContext context) {
		McpRequestContext request = (context != null) ? KEY.get(context) : null;
		return (request != null) ? request : NONE;
	}

	/**
	 * The transport context to hand the MCP SDK with the request.
	 * @return a transport context holding this value
	 */
	McpTransportContext transportContext() {
		Map<String, Object> context = new HashMap<>(2);
		KEY.put(context, this);
		return McpTransportContext.create(context);
	}

}
