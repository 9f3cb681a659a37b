package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.agentmiddleware.autoconfigure.mcp.McpRequestValidator.CheckedMessage;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The MCP Streamable HTTP transport for Spring MVC, hardened for an endpoint that any
 * client on the network, and any web page in a browser, can reach. It replaces Spring
 * AI's {@code WebMvcStreamableServerTransportProvider} (Spring AI 2.0.0), whose defects
 * it exists to avoid:
 * <ul>
 * <li>errors reach the client as serialised Java exceptions or raw messages with status
 * 500 (a missing {@code params} on {@code tools/call}, a malformed or session-less
 * message), and are logged at ERROR with the message body; here every refusal is a short
 * JSON-RPC error object with its proper code and HTTP status, and a transport failure is
 * one WARN line without the body;</li>
 * <li>bodies of any size are read and parsed; here a body over the limit gets 413 before
 * it is parsed;</li>
 * <li>it accepts any {@code Origin}, {@code Host} and {@code MCP-Protocol-Version}; here
 * they are checked;</li>
 * <li>sessions never expire and are not limited in number; here idle sessions expire and
 * the number is capped;</li>
 * <li>a session lives in one JVM; here sessions may be kept in a database shared by
 * several instances ({@link HardenedStreamableHttpTransportBuilder#sessionStore}), so
 * that any instance behind a load balancer accepts them;</li>
 * <li>a session id is all it takes to use a session; here a session started by an
 * authenticated principal is answered as unknown (404) when another principal, or an
 * anonymous client, presents its id;</li>
 * <li>open streams are left open at shutdown, so graceful shutdown waits for its timeout;
 * here {@linkplain #stop() stopping} completes every stream at once and ends the calls
 * still running for them, each request still unanswered getting an answer that says its
 * call was abandoned and whether its tool had started ({@code tools/call}: a result with
 * {@code isError}; any other request: a {@code -32000} error), so that no client waits
 * out its own timeout;</li>
 * <li>a client that goes away while its call runs is not noticed until the call writes
 * its answer; here every open stream gets a keep-alive comment at an interval
 * ({@link HardenedStreamableHttpTransportBuilder#keepAliveInterval}), and a stream found
 * broken ends, with the call running for it (its thread is interrupted);</li>
 * <li>streams cannot be resumed; here every event has an id, a stream of a
 * {@code 2025-11-25} session starts with a priming event and a {@code retry:} field
 * ({@link HardenedStreamableHttpTransportBuilder#sseRetry}; a request's stream sends it
 * with its first message, or alone once
 * {@link HardenedStreamableHttpTransportBuilder#primingHold} has passed), and a client
 * whose connection broke while its call still runs resumes the stream with {@code GET}
 * and {@code Last-Event-ID} (SEP-1699), from a replay buffer of the stream's last 100
 * events;</li>
 * <li>a {@code GET} that found its session just before a {@code DELETE} ended it stayed
 * open, unpinged, for ever; here it is refused (404) or closed at once;</li>
 * <li>a response stream might stay open after an answer (MCP SDK 2.0.0, fixed in 2.0.1
 * for unknown methods); here every response stream is completed once its request was
 * answered, whatever the SDK did.</li>
 * </ul>
 *
 * <p>
 * Status codes and JSON-RPC codes: malformed JSON 400/{@code -32700}; not a JSON-RPC 2.0
 * message 400/{@code -32600}; bad {@code tools/call} or {@code initialize} params
 * 200/{@code -32602}; missing session id 400/{@code -32000}; unknown, expired or another
 * principal's session 404/{@code -32001}; refused origin or host 403/{@code -32000};
 * unsupported protocol version 400/{@code -32000}; wrong {@code Accept} 406, wrong
 * {@code Content-Type} 415, body too large 413, too many sessions 503 and shutting down
 * 503, all {@code -32000}. Messages never echo a header value or the body.
 */
public final class HardenedStreamableHttpTransport implements McpStreamableServerTransportProvider, SmartLifecycle {

	/** The JSON-RPC code of a message that is not valid JSON. */
	public static final int PARSE_ERROR = -32700;

	/** The JSON-RPC code of a message that is not a valid JSON-RPC request. */
	public static final int INVALID_REQUEST = -32600;

	/** The JSON-RPC code of invalid method parameters. */
	public static final int INVALID_PARAMS = -32602;

	/**
	 * The JSON-RPC code of a refusal by the transport (origin, host, limits, headers).
	 */
	public static final int SERVER_ERROR = -32000;

	/** The JSON-RPC code of an unknown or expired session. */
	public static final int SESSION_NOT_FOUND = -32001;

	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	/** How often open streams get a keep-alive comment unless configured otherwise. */
	public static final Duration DEFAULT_KEEP_ALIVE_INTERVAL = Duration.ofSeconds(15);

	/**
	 * How long a client waits before it reconnects to a broken stream unless configured
	 * otherwise.
	 */
	public static final Duration DEFAULT_SSE_RETRY = Duration.ofSeconds(1);

	private static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

	private static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2024_11_05,
			ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

	private final String endpoint;

	// The jobs the transport coordinates: what a client sends, where sessions live, how
	// they answer, how it refuses
	private final JsonRpcErrors errors;

	private final McpRequestValidator validator;

	private final McpSessionRegistry sessions;

	private final McpSessionDispatcher dispatcher;

	private final McpKeepAlive keepAlive;

	// Sends the priming events that request streams held back for their first message
	private final McpHeldPrimings primings;

	// Serves the requests of MCP 2026-07-28, which have no session
	private final StatelessMcpServer stateless;

	// The tasks of MCP 2026-07-28's tasks extension that this instance runs
	private final StatelessMcpTasks tasks;

	private volatile McpStreamableServerSession.@Nullable Factory sessionFactory;

	private volatile boolean running;

	private volatile boolean closing;

	HardenedStreamableHttpTransport(HardenedStreamableHttpTransportBuilder builder) {
		this.endpoint = builder.endpoint;
		this.errors = new JsonRpcErrors(builder.jsonMapper);
		this.validator = new McpRequestValidator(
				new McpRequestGuard(builder.allowedOrigins, builder.allowedHosts, PROTOCOL_VERSIONS),
				builder.maxRequestBytes, builder.jsonMapper, this.errors);
		this.sessions = (builder.sessionStore != null)
				? new JdbcMcpSessionRegistry(builder.sessionStore, builder.jsonMapper, builder.sessionIdleTimeout,
						builder.maxSessions, builder.clock, () -> this.sessionFactory)
				: new InMemoryMcpSessionRegistry(builder.sessionIdleTimeout, builder.maxSessions, builder.clock);
		// The wall clock: a hold is real time on the wire, whatever clock the idle times
		// follow
		this.primings = new McpHeldPrimings(builder.primingHold, Clock.systemUTC());
		this.dispatcher = new McpSessionDispatcher(builder.jsonMapper, builder.toolVisibility, this.sessions,
				this.errors, builder.sseRetry, this.primings);
		this.tasks = new StatelessMcpTasks(builder.jsonMapper,
				(builder.taskStore != null) ? new JdbcMcpTaskStore(builder.taskStore, builder.jsonMapper, builder.clock)
						: new InMemoryMcpTaskStore(builder.clock),
				builder.taskSupport, builder.taskTtl, builder.taskPollInterval,
				StatelessMcpTasks.DEFAULT_CHECK_INTERVAL, builder.clock);
		this.stateless = new StatelessMcpServer(builder.jsonMapper, builder.catalog, builder.toolVisibility, this.tasks,
				builder.notifiedCapabilities, requestStates(builder), builder.approvalRound);
		this.keepAlive = new McpKeepAlive(builder.keepAliveInterval, this.sessions, this.stateless::ping);
	}

	// The requestStates of 2026-07-28 input_required answers: sealed with the configured
	// key, or a random one; the states used are remembered in the database with the
	// sessions (every instance sees them), else in this instance
	private static McpRequestStates requestStates(HardenedStreamableHttpTransportBuilder builder) {
		byte[] key = (builder.requestStateKey != null) ? builder.requestStateKey : McpRequestStates.randomKey();
		McpRequestStateLedger ledger = (builder.sessionStore != null)
				? new JdbcMcpRequestStateLedger(builder.sessionStore, builder.clock)
				: new InMemoryMcpRequestStateLedger(builder.clock);
		return new McpRequestStates(builder.jsonMapper, key, builder.requestStateValidity, builder.clock, ledger);
	}

	/**
	 * Starts a transport.
	 * @param jsonMapper reads and writes the JSON-RPC messages
	 * @return a builder
	 */
	public static HardenedStreamableHttpTransportBuilder builder(McpJsonMapper jsonMapper) {
		return new HardenedStreamableHttpTransportBuilder(jsonMapper);
	}

	/**
	 * The routes of the endpoint: {@code POST} for messages from the client, {@code GET}
	 * for the server's stream, {@code DELETE} to end a session.
	 * @return the router function to register as a bean
	 */
	public RouterFunction<ServerResponse> routerFunction() {
		return RouterFunctions.route()
			.POST(this.endpoint, this::handlePost)
			.GET(this.endpoint, this::handleGet)
			.DELETE(this.endpoint, this::handleDelete)
			.build();
	}

	@Override
	public List<String> protocolVersions() {
		return PROTOCOL_VERSIONS;
	}

	@Override
	public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
		this.sessionFactory = sessionFactory;
	}

	/**
	 * The number of live sessions: of this server, or of every instance when sessions are
	 * kept in a database ({@link HardenedStreamableHttpTransportBuilder#sessionStore}).
	 * @return the number of sessions not yet ended or expired
	 */
	public int sessionCount() {
		return this.sessions.size();
	}

	@Override
	public Mono<Void> notifyClients(String method, Object params) {
		// The subscriptions of 2026-07-28 clients hear of list changes too
		return Mono.fromRunnable(() -> this.stateless.notifyClients(method, params))
			.then(this.dispatcher.notifyClients(method, params));
	}

	// A resource changed: the 2026-07-28 subscriptions that name it are told
	void resourceUpdated(String uri) {
		this.stateless.resourceUpdated(uri);
	}

	@Override
	public Mono<Void> notifyClient(String sessionId, String method, Object params) {
		return this.dispatcher.notifyClient(sessionId, method, params);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.fromRunnable(this::closeAll);
	}

	// ----------------------------------------------------------------------------------------------------------
	// Lifecycle: stopped before the web server's graceful shutdown, so that open streams
	// do not hold it up

	@Override
	public void start() {
		this.closing = false;
		this.running = true;
		this.keepAlive.start();
		this.primings.start();
	}

	@Override
	public void stop() {
		closeAll();
		this.keepAlive.stop();
		this.primings.stop();
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		// Above the web server's graceful shutdown (DEFAULT_PHASE - 1024), so this stops
		// first
		return SmartLifecycle.DEFAULT_PHASE - 512;
	}

	// Ends every stream and cancels the calls still running for them, so that no request
	// holds the shutdown up; a
	// request still unanswered is answered first that its call was abandoned (and whether
	// its tool started)
	private void closeAll() {
		this.closing = true;
		this.stateless.endSubscriptions();
		for (McpLiveSession live : this.sessions.sessions()) {
			live.abandonStreamsAtShutdown("the server is stopping");
		}
		this.sessions.endAll();
		this.tasks.cancelAll("the server is stopping");
	}

	// ----------------------------------------------------------------------------------------------------------
	// POST: one JSON-RPC message from the client

	private ServerResponse handlePost(ServerRequest request) {
		// A request of 2026-07-28 (its header, or server/discover) passes the same edge
		// and limits, then is served statelessly; the others go on to the sessions
		if (this.closing) {
			return this.errors.unavailable();
		}
		McpChecked<CheckedMessage> checked = this.validator.check(request);
		if (checked.isRefused()) {
			return checked.refusal();
		}
		CheckedMessage message = checked.value();
		if (message.stateless()) {
			return this.stateless.serve(message.message(), request);
		}
		try {
			if (message.message() instanceof McpSchema.JSONRPCRequest jsonRpcRequest
					&& McpSchema.METHOD_INITIALIZE.equals(jsonRpcRequest.method())) {
				McpStreamableServerSession.Factory factory = this.sessionFactory;
				return (factory == null || this.closing) ? this.errors.unavailable()
						: this.dispatcher.initialize(factory, jsonRpcRequest, message, request);
			}
			return this.dispatcher.deliver(message, request);
		}
		catch (RuntimeException ex) {
			logger.warn("MCP transport failed to handle a message: {}", ex.getClass().getSimpleName());
			return this.errors.error(HttpStatus.INTERNAL_SERVER_ERROR, McpSchema.ErrorCodes.INTERNAL_ERROR,
					"Internal error: the message could not be handled");
		}
	}

	// ----------------------------------------------------------------------------------------------------------
	// GET: the server's stream of requests and notifications to the client

	private ServerResponse handleGet(ServerRequest request) {
		ServerResponse refused = refusal(request);
		if (refused == null) {
			refused = this.validator.refusalOfStream(request);
		}
		if (refused != null) {
			return refused;
		}
		McpChecked<McpLiveSession> found = this.dispatcher.session(request);
		if (found.isRefused()) {
			return found.refusal();
		}
		if (found.value().isEnded()) {
			// Found just before a DELETE ended it: refused as the ended session it is (a
			// stream that still opens
			// on it, later, is closed at once by the session)
			return this.errors.error(HttpStatus.NOT_FOUND, SESSION_NOT_FOUND,
					"Session not found: it ended or expired; send initialize to start a new one");
		}
		return this.dispatcher.listen(found.value(), request.headers().firstHeader(LAST_EVENT_ID_HEADER), request);
	}

	// ----------------------------------------------------------------------------------------------------------
	// DELETE: the client ends its session

	private ServerResponse handleDelete(ServerRequest request) {
		ServerResponse refused = refusal(request);
		if (refused != null) {
			return refused;
		}
		McpChecked<McpLiveSession> found = this.dispatcher.session(request);
		if (found.isRefused()) {
			return found.refusal();
		}
		this.sessions.end(found.value().id());
		return ServerResponse.ok().build();
	}

	// Refused whatever the method: every request while shutting down, and a bad Host,
	// Origin or protocol version
	private @Nullable ServerResponse refusal(ServerRequest request) {
		return this.closing ? this.errors.unavailable() : this.validator.refusal(request);
	}

}
