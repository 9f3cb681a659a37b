package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.autoconfigure.mcp.McpRequestValidator.CheckedMessage;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.ProtocolVersions;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Hands what a client sent, as the transport's checks passed it
 * ({@link McpRequestValidator#check}), to the MCP SDK's session it names, with what the
 * transport knows of the request (its {@link McpRequestContext}: the caller's
 * {@link ToolPrincipal}, the session id the client knows, the call's cancellation) in the
 * transport context: {@code initialize} starts a session owned by the caller in the
 * {@link McpSessionRegistry}; every other message finds its session there (400 without a
 * session id; 404 for an unknown, expired or another principal's session). A request is
 * answered on a server-sent-events stream (a caller's {@code tools/list} filtered to the
 * tools it may see, {@link ToolListFilteringTransport}) that is completed once the
 * request is answered, whatever the SDK did; a request whose client went away while its
 * call ran is completed here, so that it does not stay open in the container. A request's
 * call runs with a {@link CallCancellation} that the client's
 * {@code notifications/cancelled} for it ({@link McpRequestCancellations}) and a client
 * gone away cancel. A {@code GET} gets the session's listening stream, or resumes a
 * stream of the session with {@code Last-Event-ID}. <pre>{@code
 * McpChecked<CheckedMessage> checked = validator.check(request);
 * return checked.isRefused() ? checked.refusal() : dispatcher.deliver(checked.value(), request);
 * }</pre>
 */
final class McpSessionDispatcher {

	private static final String SESSION_HEADER = "Mcp-Session-Id";

	// The User-Agent of java.net.http.HttpClient
	private static final String JDK_HTTP_CLIENT = "Java-http-client/";

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final McpToolVisibility toolVisibility;

	private final McpSessionRegistry sessions;

	private final JsonRpcErrors errors;

	// The retry: field of the priming event; zero sends no priming event
	private final Duration sseRetry;

	// Sends the priming events that request streams hold back for their first message
	private final McpHeldPrimings primings;

	McpSessionDispatcher(McpJsonMapper jsonMapper, McpToolVisibility toolVisibility, McpSessionRegistry sessions,
			JsonRpcErrors errors, Duration sseRetry, McpHeldPrimings primings) {
		this.jsonMapper = jsonMapper;
		this.toolVisibility = toolVisibility;
		this.sessions = sessions;
		this.errors = errors;
		this.sseRetry = sseRetry;
		this.primings = primings;
	}

	/**
	 * Starts a session for an {@code initialize} request, owned by the request's
	 * authenticated principal.
	 * @param factory the MCP SDK's session factory
	 * @param request the {@code initialize} request
	 * @param checked the request as the transport's checks passed it, with its params
	 * @param httpRequest the HTTP request that sent it
	 * @return the SDK's answer with the new {@code Mcp-Session-Id}, or the refusal (bad
	 * params, too many sessions)
	 */
	ServerResponse initialize(McpStreamableServerSession.Factory factory, McpSchema.JSONRPCRequest request,
			CheckedMessage checked, ServerRequest httpRequest) {
		ServerResponse refused = checked.refusalOfParams();
		if (refused != null) {
			return refused;
		}
		McpSchema.InitializeRequest params = Objects.requireNonNull(checked.initialize(), "initialize params");
		McpStreamableServerSession.McpStreamableServerSessionInit init = this.sessions.start(factory, params,
				principalName(httpRequest.servletRequest()));
		if (init == null) {
			return this.errors.error(HttpStatus.SERVICE_UNAVAILABLE, request.id(),
					HardenedStreamableHttpTransport.SERVER_ERROR, "Too many sessions: the server holds its limit of "
							+ this.sessions.maxSessions() + " live sessions; end an unused session or try again later");
		}
		McpSchema.InitializeResult result = init.initResult().block();
		McpLiveSession started = this.sessions.get(init.session().getId());
		if (started != null && result != null && result.protocolVersion() != null) {
			started.protocolVersion(result.protocolVersion());
		}
		if (logger.isDebugEnabled()) {
			// In place of the MCP SDK's INFO line, which logs the client's texts as they
			// came (set to WARN by default)
			McpSchema.Implementation client = params.clientInfo();
			logger.debug("MCP session {} started by client {} version {} (protocol {})",
					SessionFingerprint.of(init.session().getId()),
					McpLogText.of((client != null) ? client.name() : null),
					McpLogText.of((client != null) ? client.version() : null), McpLogText.of(params.protocolVersion()));
		}
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.header(SESSION_HEADER, init.session().getId())
			.body(this.errors
				.json(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null)));
	}

	/**
	 * The live session the request names, or the refusal to answer with.
	 * @param request the HTTP request
	 * @return the session, marked as used, or the refusal (400 without a session id, 404
	 * when not found)
	 */
	McpChecked<McpLiveSession> session(ServerRequest request) {
		String id = request.headers().firstHeader(SESSION_HEADER);
		if (id == null || id.isBlank()) {
			return McpChecked
				.refused(this.errors.error(HttpStatus.BAD_REQUEST, HardenedStreamableHttpTransport.SERVER_ERROR,
						"Bad Request: the Mcp-Session-Id header is required; send initialize first"));
		}
		McpLiveSession live = this.sessions.find(id, principalName(request.servletRequest()));
		if (live == null) {
			return McpChecked
				.refused(this.errors.error(HttpStatus.NOT_FOUND, HardenedStreamableHttpTransport.SESSION_NOT_FOUND,
						"Session not found: it ended or expired; send initialize to start a new one"));
		}
		return McpChecked.passed(live);
	}

	/**
	 * Sends a notification to every live session; one that fails is logged and skipped.
	 * @param method the notification's method
	 * @param params its params
	 * @return completes when every session was sent it
	 */
	Mono<Void> notifyClients(String method, Object params) {
		return Mono.fromRunnable(() -> {
			for (McpLiveSession live : this.sessions.sessions()) {
				try {
					live.session().sendNotification(method, params).block();
				}
				catch (RuntimeException ex) {
					notificationFailed(live, method, ex);
				}
			}
		});
	}

	/**
	 * Sends a notification to one session, if it lives.
	 * @param sessionId the session id
	 * @param method the notification's method
	 * @param params its params
	 * @return completes when it was sent, at once when no such session lives
	 */
	Mono<Void> notifyClient(String sessionId, String method, Object params) {
		return Mono.defer(() -> {
			McpLiveSession live = this.sessions.get(sessionId);
			if (live == null) {
				return Mono.empty();
			}
			return live.session().sendNotification(method, params).onErrorResume((ex) -> !live.isListening(), (ex) -> {
				notificationFailed(live, method, ex);
				return Mono.empty();
			});
		});
	}

	// A session without a listening stream is expected (its client went away, or never
	// opened one): only a failure of a stream that is there is a warning
	private static void notificationFailed(McpLiveSession live, String method, Throwable ex) {
		if (!live.isListening()) {
			logger.debug("MCP notification '{}' not sent to a session without a listening stream: {}", method,
					ex.getClass().getSimpleName());
			return;
		}
		logger.warn("MCP notification '{}' to a session failed: {}", method, ex.getClass().getSimpleName());
	}

	/**
	 * Hands a message other than {@code initialize} to the session it names: a request is
	 * answered on a stream (unless its params were refused), a notification or a response
	 * to the server's request is accepted (202).
	 * @param checked the message, as the transport's checks passed it
	 * @param httpRequest the HTTP request that sent it
	 * @return the response, or the refusal ({@link #session}: 400 without a session id,
	 * 404 when not found; then the refusal of bad params)
	 */
	ServerResponse deliver(CheckedMessage checked, ServerRequest httpRequest) {
		McpChecked<McpLiveSession> found = session(httpRequest);
		return found.isRefused() ? found.refusal() : deliver(found.value(), checked, httpRequest);
	}

	private ServerResponse deliver(McpLiveSession live, CheckedMessage checked, ServerRequest httpRequest) {
		McpSchema.JSONRPCMessage message = checked.message();
		if (message instanceof McpSchema.JSONRPCRequest request) {
			ServerResponse refused = checked.refusalOfParams();
			if (refused != null) {
				return refused;
			}
			return answer(live, request, httpRequest.servletRequest(), priming(live, httpRequest));
		}
		McpTransportContext context = McpRequestContext.ofSession(live.id(), httpRequest.servletRequest(), null, null)
			.transportContext();
		if (message instanceof McpSchema.JSONRPCNotification notification) {
			if (McpRequestCancellations.isCancellation(notification)) {
				// The SDK drops it: the request in flight of this session is cancelled
				// here
				McpRequestCancellations.cancel(live, notification);
				return ServerResponse.accepted().build();
			}
			live.session()
				.accept(notification)
				.contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, context))
				.block();
		}
		else {
			live.session()
				.accept((McpSchema.JSONRPCResponse) message)
				.contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, context))
				.block();
		}
		return ServerResponse.accepted().build();
	}

	// The response stream of one request, which the session answers on the calling
	// thread; its call runs with a cancellation that the client's notifications/cancelled
	// and a client gone away cancel, and with what the transport knows of the request,
	// built once its stream is open
	private ServerResponse answer(McpLiveSession live, McpSchema.JSONRPCRequest request,
			HttpServletRequest servletRequest, @Nullable Duration retry) {
		String requestKey = McpRequestCancellations.key(request.id());
		CallCancellation cancellation = new CallCancellation();
		BiConsumer<ServerResponse.SseBuilder, PrimingHoldingResponse.@Nullable Connection> respond = (sse,
				connection) -> {
			McpSseStream stream = live.open(sse, this.jsonMapper, cancellation, request);
			McpRequestContext context = McpRequestContext.ofSession(live.id(), servletRequest, cancellation, stream);
			if (retry != null) {
				// Held back, the priming event travels with the answer of a call answered
				// at once: one write instead of two
				stream.prime(retry, connection);
				if (connection != null) {
					this.primings.hold(stream::sendHeldPriming);
				}
			}
			if (requestKey != null) {
				live.callStarted(requestKey, stream);
			}
			try {
				// A caller's tools/list shows only the tools it may see
				McpStreamableServerTransport answer = McpSchema.METHOD_TOOLS_LIST.equals(request.method())
						? new ToolListFilteringTransport(stream, this.toolVisibility, context.principal()) : stream;
				McpTransportContext transportContext = context.transportContext();
				live.session()
					.responseStream(request, answer)
					.contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, transportContext))
					.block();
			}
			catch (RuntimeException ex) {
				if (stream.isClosed()) {
					logger.debug("MCP request {} ended: its client went away or cancelled it",
							McpLogText.of(request.method()));
				}
				else {
					logger.warn("MCP request {} failed in the transport: {}", McpLogText.of(request.method()),
							ex.getClass().getSimpleName());
				}
			}
			finally {
				if (requestKey != null) {
					live.callEnded(requestKey, stream);
				}
				// The request is answered (or failed, or cancelled): its response must
				// complete
				stream.close();
				if (stream.isAbandoned() || stream.isResumed()) {
					// Its client went away, or resumed the stream on another connection:
					// this request ends here
					completeAbandoned(servletRequest);
				}
			}
		};
		if (retry != null && this.primings.isHolding()) {
			return PrimingHoldingResponse.sse(respond);
		}
		return ServerResponse.sse((sse) -> respond.accept(sse, null), Duration.ZERO);
	}

	/**
	 * The session's stream of requests and notifications to the client; with a
	 * {@code Last-Event-ID} of a stream of this session still open on this instance (a
	 * call still running, the listening stream), that stream resumed: the events after
	 * that id, then the rest of it. An id this instance does not know (another session's,
	 * a stream that ended, an event no longer in the stream's replay buffer) gets the
	 * listening stream, as a {@code GET} without it.
	 * @param live the session
	 * @param lastEventId the {@code Last-Event-ID} header, {@code null} for the listening
	 * stream
	 * @param httpRequest the {@code GET}
	 * @return the streaming response
	 */
	ServerResponse listen(McpLiveSession live, @Nullable String lastEventId, ServerRequest httpRequest) {
		Duration retry = priming(live, httpRequest);
		return ServerResponse.sse((sse) -> {
			if (lastEventId != null && live.resume(sse, lastEventId)) {
				return;
			}
			McpSseStream stream = live.open(sse, this.jsonMapper);
			if (stream.isClosed()) {
				// The session ended meanwhile
				return;
			}
			McpStreamableServerSession.McpStreamableServerSessionStream listening = live.session()
				.listeningStream(stream);
			stream.onCompleted(listening::close);
			if (retry != null) {
				stream.prime(retry, null);
			}
			else {
				stream.open();
			}
		}, Duration.ZERO);
	}

	// The retry: of the priming event when the session speaks 2025-11-25 or later (as
	// negotiated here, else as the
	// request's MCP-Protocol-Version says), null for none: an older client may fail on an
	// event without data. Zero
	// for a priming event without retry: for the JDK's HTTP client, which the MCP Java
	// SDK's client uses: up to
	// 2.0.1 its event parser fails on a retry: line (modelcontextprotocol/java-sdk#1047),
	// and ignores the priming event
	private @Nullable Duration priming(McpLiveSession live, ServerRequest httpRequest) {
		if (this.sseRetry.isZero() || this.sseRetry.isNegative()) {
			return null;
		}
		String version = live.protocolVersion();
		if (version == null) {
			version = httpRequest.headers().firstHeader("MCP-Protocol-Version");
		}
		if (version == null || version.trim().compareTo(ProtocolVersions.MCP_2025_11_25) < 0) {
			return null;
		}
		String userAgent = httpRequest.headers().firstHeader("User-Agent");
		return (userAgent != null && userAgent.startsWith(JDK_HTTP_CLIENT)) ? Duration.ZERO : this.sseRetry;
	}

	// The name of the authenticated principal of the request, which owns the sessions it
	// starts
	private static @Nullable String principalName(HttpServletRequest request) {
		ToolPrincipal principal = ToolPrincipals.of(request.getUserPrincipal());
		return (principal != null) ? principal.name() : null;
	}

	// A request whose client went away while its call ran on the request thread: the
	// container learns of the broken
	// connection only as that thread returns, and its error dispatch would then leave the
	// request open (Tomcat
	// recycles it without completing it, so the server's active-requests meter never ends
	// it); it is completed here
	static void completeAbandoned(HttpServletRequest servletRequest) {
		try {
			if (servletRequest.isAsyncStarted()) {
				servletRequest.getAsyncContext().complete();
			}
		}
		catch (IllegalStateException ex) {
			logger.debug("Completing an abandoned MCP request failed: {}", ex.getClass().getSimpleName());
		}
	}

}
