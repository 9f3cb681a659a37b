package dev.agentmiddleware.spring.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.agentmiddleware.spring.tool.ToolPrincipals;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The MCP Streamable HTTP transport for Spring MVC, hardened for an endpoint that any client on the network, and
 * any web page in a browser, can reach. It replaces Spring AI's {@code WebMvcStreamableServerTransportProvider}
 * (Spring AI 2.0.0), whose defects it exists to avoid:
 * <ul>
 * <li>errors reach the client as serialised Java exceptions or raw messages with status 500 (a missing
 * {@code params} on {@code tools/call}, a malformed or session-less message), and are logged at ERROR with the
 * message body; here every refusal is a short JSON-RPC error object with its proper code and HTTP status, and a
 * transport failure is one WARN line without the body;</li>
 * <li>bodies of any size are read and parsed; here a body over the limit gets 413 before it is parsed;</li>
 * <li>it accepts any {@code Origin}, {@code Host} and {@code MCP-Protocol-Version}; here they are checked;</li>
 * <li>sessions never expire and are not limited in number; here idle sessions expire and the number is capped;</li>
 * <li>a session id is all it takes to use a session; here a session started by an authenticated principal is
 * answered as unknown (404) when another principal, or an anonymous client, presents its id;</li>
 * <li>open streams are left open at shutdown, so graceful shutdown waits for its timeout; here
 * {@linkplain #stop() stopping} completes every stream at once and ends the calls still running for them;</li>
 * <li>a client that goes away while its call runs is not noticed until the call writes its answer; here every open
 * stream gets a keep-alive comment at an interval ({@link Builder#keepAliveInterval}), and a stream found broken
 * ends, with the call running for it (its thread is interrupted);</li>
 * <li>a response stream might stay open after an answer (MCP SDK 2.0.0, fixed in 2.0.1 for unknown methods); here
 * every response stream is completed once its request was answered, whatever the SDK did.</li>
 * </ul>
 *
 * <p>Status codes and JSON-RPC codes: malformed JSON 400/{@code -32700}; not a JSON-RPC 2.0 message 400/{@code -32600};
 * bad {@code tools/call} or {@code initialize} params 200/{@code -32602}; missing session id 400/{@code -32000};
 * unknown, expired or another principal's session 404/{@code -32001}; refused origin or host 403/{@code -32000};
 * unsupported protocol version 400/{@code -32000}; wrong {@code Accept} 406, wrong {@code Content-Type} 415, body too
 * large 413, too many sessions 503 and shutting down 503, all {@code -32000}. Messages never echo a header value or the body.
 */
public final class HardenedStreamableHttpTransport implements McpStreamableServerTransportProvider, SmartLifecycle {

	/** The JSON-RPC code of a message that is not valid JSON. */
	public static final int PARSE_ERROR = -32700;

	/** The JSON-RPC code of a message that is not a valid JSON-RPC request. */
	public static final int INVALID_REQUEST = -32600;

	/** The JSON-RPC code of invalid method parameters. */
	public static final int INVALID_PARAMS = -32602;

	// Parses incoming messages; refuses repeated keys, which a lenient parser would resolve silently to the last one
	private static final JsonMapper STRICT_JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.build();

	/** The JSON-RPC code of a refusal by the transport (origin, host, limits, headers). */
	public static final int SERVER_ERROR = -32000;

	/** The JSON-RPC code of an unknown or expired session. */
	public static final int SESSION_NOT_FOUND = -32001;

	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	/** How often open streams get a keep-alive comment unless configured otherwise. */
	public static final Duration DEFAULT_KEEP_ALIVE_INTERVAL = Duration.ofSeconds(15);

	// The longest text of a JSON-RPC error sent as the SDK built it: room for a tool name of 128 characters
	private static final int MAX_ERROR_TEXT = 160;

	private static final String SESSION_HEADER = "Mcp-Session-Id";

	private static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

	private static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

	private static final String MESSAGE_EVENT = "message";

	private static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2024_11_05,
			ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

	private final McpJsonMapper jsonMapper;

	private final String endpoint;

	private final McpRequestGuard guard;

	private final long maxRequestBytes;

	private final Duration sessionIdleTimeout;

	private final int maxSessions;

	private final Clock clock;

	private final McpToolVisibility toolVisibility;

	private final Duration keepAliveInterval;

	private volatile @Nullable ScheduledExecutorService keepAlive;

	private final Map<String, LiveSession> sessions = new ConcurrentHashMap<>();

	private final ReentrantLock sessionCreation = new ReentrantLock();

	private volatile McpStreamableServerSession.@Nullable Factory sessionFactory;

	private volatile boolean running;

	private volatile boolean closing;

	private HardenedStreamableHttpTransport(Builder builder) {
		this.jsonMapper = builder.jsonMapper;
		this.endpoint = builder.endpoint;
		this.guard = new McpRequestGuard(builder.allowedOrigins, builder.allowedHosts, PROTOCOL_VERSIONS);
		this.maxRequestBytes = builder.maxRequestBytes;
		this.sessionIdleTimeout = builder.sessionIdleTimeout;
		this.maxSessions = builder.maxSessions;
		this.clock = builder.clock;
		this.toolVisibility = builder.toolVisibility;
		this.keepAliveInterval = builder.keepAliveInterval;
	}

	/**
	 * Starts a transport.
	 * @param jsonMapper reads and writes the JSON-RPC messages
	 * @return a builder
	 */
	public static Builder builder(McpJsonMapper jsonMapper) {
		return new Builder(jsonMapper);
	}

	/**
	 * The routes of the endpoint: {@code POST} for messages from the client, {@code GET} for the server's stream,
	 * {@code DELETE} to end a session.
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
	 * The number of live sessions.
	 * @return the number of sessions not yet ended or expired
	 */
	public int sessionCount() {
		return this.sessions.size();
	}

	@Override
	public Mono<Void> notifyClients(String method, Object params) {
		return Mono.fromRunnable(() -> {
			for (LiveSession live : this.sessions.values()) {
				try {
					live.session().sendNotification(method, params).block();
				}
				catch (RuntimeException ex) {
					logger.warn("MCP notification '{}' to a session failed: {}", method, ex.getClass().getSimpleName());
				}
			}
		});
	}

	@Override
	public Mono<Void> notifyClient(String sessionId, String method, Object params) {
		return Mono.defer(() -> {
			LiveSession live = this.sessions.get(sessionId);
			return (live != null) ? live.session().sendNotification(method, params) : Mono.empty();
		});
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.fromRunnable(this::closeAll);
	}

	// ----------------------------------------------------------------------------------------------------------
	// Lifecycle: stopped before the web server's graceful shutdown, so that open streams do not hold it up

	@Override
	public void start() {
		this.closing = false;
		this.running = true;
		if (!this.keepAliveInterval.isZero() && !this.keepAliveInterval.isNegative()) {
			ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "mcp-keep-alive");
				thread.setDaemon(true);
				return thread;
			});
			long millis = Math.max(1, this.keepAliveInterval.toMillis());
			keepAlive.scheduleWithFixedDelay(this::keepAlive, millis, millis, TimeUnit.MILLISECONDS);
			this.keepAlive = keepAlive;
		}
	}

	@Override
	public void stop() {
		closeAll();
		ScheduledExecutorService keepAlive = this.keepAlive;
		if (keepAlive != null) {
			keepAlive.shutdownNow();
			this.keepAlive = null;
		}
		this.running = false;
	}

	// Writes a comment on every open stream: the only way to learn that a client went away while its call is still
	// running, since nothing else is written to it until the call ends
	private void keepAlive() {
		try {
			for (LiveSession live : this.sessions.values()) {
				for (SseStream stream : List.copyOf(live.streams)) {
					stream.ping();
				}
			}
		}
		catch (RuntimeException ex) {
			logger.debug("MCP keep-alive failed: {}", ex.getClass().getSimpleName());
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		// Above the web server's graceful shutdown (DEFAULT_PHASE - 1024), so this stops first
		return SmartLifecycle.DEFAULT_PHASE - 512;
	}

	// Ends every stream, and the calls still running for them, so that no request holds the shutdown up
	private void closeAll() {
		this.closing = true;
		for (LiveSession live : List.copyOf(this.sessions.values())) {
			live.abandonStreams();
		}
		for (String id : List.copyOf(this.sessions.keySet())) {
			end(id);
		}
	}

	// ----------------------------------------------------------------------------------------------------------
	// POST: one JSON-RPC message from the client

	private ServerResponse handlePost(ServerRequest request) {
		ServerResponse refused = checkCommon(request);
		if (refused != null) {
			return refused;
		}
		if (!accepts(request, MediaType.APPLICATION_JSON) || !accepts(request, MediaType.TEXT_EVENT_STREAM)) {
			return error(HttpStatus.NOT_ACCEPTABLE, SERVER_ERROR,
					"Not Acceptable: the Accept header must list application/json and text/event-stream");
		}
		if (!isJson(request)) {
			return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, SERVER_ERROR,
					"Unsupported Media Type: the Content-Type must be application/json");
		}
		long declaredLength = request.servletRequest().getContentLengthLong();
		if (declaredLength > this.maxRequestBytes) {
			return tooLarge();
		}
		byte[] body;
		try {
			body = readBody(request.servletRequest());
		}
		catch (BodyTooLargeException ex) {
			return tooLarge();
		}
		catch (IOException ex) {
			logger.debug("MCP client went away while sending a message: {}", ex.getClass().getSimpleName());
			return error(HttpStatus.BAD_REQUEST, PARSE_ERROR, "Parse error: the message could not be read");
		}
		Object parsed;
		try {
			parsed = STRICT_JSON.readValue(body, Object.class);
		}
		catch (StreamReadException ex) {
			if (isDuplicateKey(ex)) {
				// A repeated key is refused as on every other path (the binder refuses it in a JSON string), rather
				// than silently keeping the last value as a lenient parser would
				logger.warn("MCP message refused: it repeats a key ({} bytes)", body.length);
				return error(HttpStatus.OK, idOf(body), INVALID_PARAMS,
						"Invalid params: the message repeats a key; each key may appear only once in an object");
			}
			logger.warn("MCP message refused: not valid JSON ({} bytes)", body.length);
			return error(HttpStatus.BAD_REQUEST, PARSE_ERROR, "Parse error: the body is not valid JSON");
		}
		catch (RuntimeException ex) {
			logger.warn("MCP message refused: not valid JSON ({} bytes)", body.length);
			return error(HttpStatus.BAD_REQUEST, PARSE_ERROR, "Parse error: the body is not valid JSON");
		}
		if (!(parsed instanceof Map<?, ?> fields)) {
			logger.warn("MCP message refused: not a JSON-RPC message object");
			return error(HttpStatus.BAD_REQUEST, INVALID_REQUEST,
					"Invalid Request: expected one JSON-RPC 2.0 message object");
		}
		McpSchema.JSONRPCMessage message = toMessage(fields);
		if (message == null) {
			logger.warn("MCP message refused: not a valid JSON-RPC 2.0 message");
			return error(HttpStatus.BAD_REQUEST, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
		}
		try {
			if (message instanceof McpSchema.JSONRPCRequest jsonRpcRequest
					&& McpSchema.METHOD_INITIALIZE.equals(jsonRpcRequest.method())) {
				return initialize(jsonRpcRequest, principalName(request.servletRequest()));
			}
			Object found = session(request);
			if (found instanceof ServerResponse refusal) {
				return refusal;
			}
			LiveSession live = (LiveSession) found;
			McpTransportContext context = transportContext(request.servletRequest());
			if (message instanceof McpSchema.JSONRPCRequest jsonRpcRequest) {
				String invalid = invalidParams(jsonRpcRequest);
				if (invalid != null) {
					return error(HttpStatus.OK, jsonRpcRequest.id(), INVALID_PARAMS, invalid);
				}
				return respond(live, jsonRpcRequest, context, request.servletRequest());
			}
			if (message instanceof McpSchema.JSONRPCNotification notification) {
				live.session().accept(notification).contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, context)).block();
			}
			else {
				live.session()
					.accept((McpSchema.JSONRPCResponse) message)
					.contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, context))
					.block();
			}
			return ServerResponse.accepted().build();
		}
		catch (RuntimeException ex) {
			logger.warn("MCP transport failed to handle a message: {}", ex.getClass().getSimpleName());
			return error(HttpStatus.INTERNAL_SERVER_ERROR, McpSchema.ErrorCodes.INTERNAL_ERROR,
					"Internal error: the message could not be handled");
		}
	}

	private ServerResponse initialize(McpSchema.JSONRPCRequest request, @Nullable String owner) {
		McpStreamableServerSession.Factory factory = this.sessionFactory;
		if (factory == null || this.closing) {
			return unavailable();
		}
		McpSchema.InitializeRequest initializeRequest;
		try {
			initializeRequest = this.jsonMapper.convertValue(request.params(), new TypeRef<>() {
			});
		}
		catch (RuntimeException ex) {
			initializeRequest = null;
		}
		if (initializeRequest == null || initializeRequest.protocolVersion() == null) {
			return error(HttpStatus.OK, request.id(), INVALID_PARAMS,
					"Invalid params: initialize needs protocolVersion, capabilities and clientInfo");
		}
		McpStreamableServerSession.McpStreamableServerSessionInit init;
		this.sessionCreation.lock();
		try {
			if (this.sessions.size() >= this.maxSessions) {
				expireIdleSessions();
			}
			if (this.sessions.size() >= this.maxSessions) {
				logger.warn("MCP session refused: the limit of {} live sessions is reached", this.maxSessions);
				return error(HttpStatus.SERVICE_UNAVAILABLE, request.id(), SERVER_ERROR,
						"Too many sessions: the server holds its limit of " + this.maxSessions
								+ " live sessions; end an unused session or try again later");
			}
			init = factory.startSession(initializeRequest);
			this.sessions.put(init.session().getId(), new LiveSession(init.session(), owner, this.clock.instant()));
		}
		finally {
			this.sessionCreation.unlock();
		}
		McpSchema.InitializeResult result = init.initResult().block();
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.header(SESSION_HEADER, init.session().getId())
			.body(json(
					new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null)));
	}

	private ServerResponse respond(LiveSession live, McpSchema.JSONRPCRequest request, McpTransportContext context,
			HttpServletRequest servletRequest) {
		return ServerResponse.sse((sse) -> {
			SseStream stream = live.open(sse);
			stream.callStarted();
			try {
				// A caller's tools/list shows only the tools it may see
				McpStreamableServerTransport answer = McpSchema.METHOD_TOOLS_LIST.equals(request.method())
						? new ToolListFilteringTransport(stream, this.toolVisibility, McpToolHandler.principal(context))
						: stream;
				live.session()
					.responseStream(request, answer)
					.contextWrite((ctx) -> ctx.put(McpTransportContext.KEY, context))
					.block();
			}
			catch (RuntimeException ex) {
				if (stream.isClosed()) {
					logger.debug("MCP request '{}' ended: its client went away", request.method());
				}
				else {
					logger.warn("MCP request '{}' failed in the transport: {}", request.method(),
							ex.getClass().getSimpleName());
				}
			}
			finally {
				stream.callEnded();
				// The request is answered (or failed): its response must complete
				stream.close();
				if (stream.isAbandoned()) {
					completeAbandoned(servletRequest);
				}
			}
		}, Duration.ZERO);
	}

	// A request whose client went away while its call ran on the request thread: the container learns of the broken
	// connection only as that thread returns, and its error dispatch would then leave the request open (Tomcat
	// recycles it without completing it, so the server's active-requests meter never ends it); it is completed here
	private static void completeAbandoned(HttpServletRequest servletRequest) {
		try {
			if (servletRequest.isAsyncStarted()) {
				servletRequest.getAsyncContext().complete();
			}
		}
		catch (IllegalStateException ex) {
			logger.debug("Completing an abandoned MCP request failed: {}", ex.getClass().getSimpleName());
		}
	}

	// The caller's name and authorities (Spring Security's Authentication behind getUserPrincipal()), for
	// McpToolHandler and the caller's tools/list.
	private static McpTransportContext transportContext(HttpServletRequest request) {
		ToolPrincipal principal = ToolPrincipals.of(request.getUserPrincipal());
		return (principal != null) ? McpTransportContext.create(Map.of(McpToolHandler.PRINCIPAL_KEY, principal))
				: McpTransportContext.EMPTY;
	}

	// Checks the params of the methods whose bad params the SDK would answer with a 500 and an exception text
	private static @Nullable String invalidParams(McpSchema.JSONRPCRequest request) {
		if (!McpSchema.METHOD_TOOLS_CALL.equals(request.method())) {
			return null;
		}
		if (!(request.params() instanceof Map<?, ?> params)) {
			return "Invalid params: tools/call needs params with the tool's name and its arguments";
		}
		if (!(params.get("name") instanceof String name) || name.isBlank()) {
			return "Invalid params: tools/call needs a tool name as a string in params.name";
		}
		Object arguments = params.get("arguments");
		if (arguments != null && !(arguments instanceof Map)) {
			return "Invalid params: the arguments of tools/call must be a JSON object";
		}
		return null;
	}

	// ----------------------------------------------------------------------------------------------------------
	// GET: the server's stream of requests and notifications to the client

	private ServerResponse handleGet(ServerRequest request) {
		ServerResponse refused = checkCommon(request);
		if (refused != null) {
			return refused;
		}
		if (!accepts(request, MediaType.TEXT_EVENT_STREAM)) {
			return error(HttpStatus.NOT_ACCEPTABLE, SERVER_ERROR,
					"Not Acceptable: the Accept header must list text/event-stream");
		}
		Object found = session(request);
		if (found instanceof ServerResponse refusal) {
			return refusal;
		}
		LiveSession live = (LiveSession) found;
		String lastEventId = request.headers().firstHeader(LAST_EVENT_ID_HEADER);
		return ServerResponse.sse((sse) -> {
			SseStream stream = live.open(sse);
			if (lastEventId != null) {
				try {
					live.session().replay(lastEventId).concatMap(stream::sendMessage).then().block();
				}
				catch (RuntimeException ex) {
					logger.warn("MCP replay failed: {}", ex.getClass().getSimpleName());
				}
				stream.close();
			}
			else {
				McpStreamableServerSession.McpStreamableServerSessionStream listening = live.session()
					.listeningStream(stream);
				stream.onCompleted(listening::close);
				// Commits the response, so the client sees the stream open before the first message
				stream.open();
			}
		}, Duration.ZERO);
	}

	// ----------------------------------------------------------------------------------------------------------
	// DELETE: the client ends its session

	private ServerResponse handleDelete(ServerRequest request) {
		ServerResponse refused = checkCommon(request);
		if (refused != null) {
			return refused;
		}
		Object found = session(request);
		if (found instanceof ServerResponse refusal) {
			return refusal;
		}
		LiveSession live = (LiveSession) found;
		end(live.session().getId());
		return ServerResponse.ok().build();
	}

	// ----------------------------------------------------------------------------------------------------------
	// Shared checks

	private @Nullable ServerResponse checkCommon(ServerRequest request) {
		if (this.closing) {
			return unavailable();
		}
		String refusal = this.guard.refusal(request.headers().firstHeader(HttpHeaders.HOST),
				request.headers().firstHeader(HttpHeaders.ORIGIN));
		if (refusal != null) {
			return error(HttpStatus.FORBIDDEN, SERVER_ERROR, refusal);
		}
		if (!this.guard.allowsProtocolVersion(request.headers().firstHeader(PROTOCOL_VERSION_HEADER))) {
			return error(HttpStatus.BAD_REQUEST, SERVER_ERROR,
					"Bad Request: unsupported MCP-Protocol-Version; supported: " + String.join(", ", PROTOCOL_VERSIONS));
		}
		return null;
	}

	// The live session the request names, or the refusal to answer with
	private Object session(ServerRequest request) {
		String id = request.headers().firstHeader(SESSION_HEADER);
		if (id == null || id.isBlank()) {
			return error(HttpStatus.BAD_REQUEST, SERVER_ERROR,
					"Bad Request: the Mcp-Session-Id header is required; send initialize first");
		}
		LiveSession live = this.sessions.get(id);
		Instant now = this.clock.instant();
		if (live != null && live.idleSince(now).compareTo(this.sessionIdleTimeout) > 0) {
			logger.debug("MCP session expired after {} idle", this.sessionIdleTimeout);
			end(id);
			live = null;
		}
		if (live != null && !live.belongsTo(principalName(request.servletRequest()))) {
			// Answered exactly as an unknown session: the id of another principal's session is worth nothing
			logger.warn("MCP request refused: it names a session that another principal started");
			live = null;
		}
		if (live == null) {
			return error(HttpStatus.NOT_FOUND, SESSION_NOT_FOUND,
					"Session not found: it ended or expired; send initialize to start a new one");
		}
		live.touch(now);
		return live;
	}

	// The name of the authenticated principal of the request, which owns the sessions it starts
	private static @Nullable String principalName(HttpServletRequest request) {
		ToolPrincipal principal = ToolPrincipals.of(request.getUserPrincipal());
		return (principal != null) ? principal.name() : null;
	}

	private void expireIdleSessions() {
		Instant now = this.clock.instant();
		this.sessions.forEach((id, live) -> {
			if (live.idleSince(now).compareTo(this.sessionIdleTimeout) > 0) {
				end(id);
			}
		});
	}

	private void end(String id) {
		LiveSession live = this.sessions.remove(id);
		if (live == null) {
			return;
		}
		try {
			live.session().delete().block(Duration.ofSeconds(1));
		}
		catch (RuntimeException ex) {
			logger.debug("Closing an MCP session failed: {}", ex.getClass().getSimpleName());
		}
		live.closeStreams();
	}

	private byte[] readBody(HttpServletRequest request) throws IOException {
		try (InputStream input = request.getInputStream()) {
			byte[] body = input.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, this.maxRequestBytes + 1));
			if (body.length > this.maxRequestBytes) {
				throw new BodyTooLargeException();
			}
			return body;
		}
	}

	private McpSchema.@Nullable JSONRPCMessage toMessage(Map<?, ?> fields) {
		if (!McpSchema.JSONRPC_VERSION.equals(fields.get("jsonrpc"))) {
			return null;
		}
		Object id = fields.get("id");
		boolean validId = id instanceof String || id instanceof Number;
		Object method = fields.get("method");
		Object params = fields.get("params");
		if (params != null && !(params instanceof Map) && !(params instanceof List)) {
			return null;
		}
		try {
			if (method instanceof String name) {
				if (id == null && !fields.containsKey("id")) {
					return this.jsonMapper.convertValue(fields, McpSchema.JSONRPCNotification.class);
				}
				return validId ? this.jsonMapper.convertValue(fields, McpSchema.JSONRPCRequest.class) : null;
			}
			if (method == null && validId && (fields.containsKey("result") || fields.containsKey("error"))) {
				return this.jsonMapper.convertValue(fields, McpSchema.JSONRPCResponse.class);
			}
		}
		catch (RuntimeException ex) {
			return null;
		}
		return null;
	}

	private static boolean accepts(ServerRequest request, MediaType required) {
		try {
			for (MediaType accepted : request.headers().accept()) {
				if (accepted.includes(required)) {
					return true;
				}
			}
			return false;
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private static boolean isJson(ServerRequest request) {
		try {
			return request.headers().contentType().map(MediaType.APPLICATION_JSON::isCompatibleWith).orElse(false);
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private String json(Object value) {
		try {
			return this.jsonMapper.writeValueAsString(value);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// A JSON-RPC error the SDK built may quote the request (such as "Tool not found: " and the name sent): its texts
	// are cut, so an error never echoes unbounded input
	static McpSchema.JSONRPCMessage bounded(McpSchema.JSONRPCMessage message) {
		if (!(message instanceof McpSchema.JSONRPCResponse response) || response.error() == null) {
			return message;
		}
		McpSchema.JSONRPCResponse.JSONRPCError error = response.error();
		boolean longMessage = error.message() != null && error.message().length() > MAX_ERROR_TEXT;
		boolean longData = error.data() instanceof String data && data.length() > MAX_ERROR_TEXT;
		if (!longMessage && !longData) {
			return message;
		}
		return new McpSchema.JSONRPCResponse(response.jsonrpc(), response.id(), null,
				new McpSchema.JSONRPCResponse.JSONRPCError(error.code(), cut(error.message()),
						(error.data() instanceof String data) ? cut(data) : error.data()));
	}

	private static @Nullable String cut(@Nullable String text) {
		return (text == null || text.length() <= MAX_ERROR_TEXT) ? text : text.substring(0, MAX_ERROR_TEXT) + "...";
	}

	private ServerResponse tooLarge() {
		return error(HttpStatus.CONTENT_TOO_LARGE, SERVER_ERROR,
				"Content Too Large: a message may have at most " + this.maxRequestBytes + " bytes");
	}

	private ServerResponse unavailable() {
		return error(HttpStatus.SERVICE_UNAVAILABLE, SERVER_ERROR, "Service Unavailable: the server is shutting down");
	}

	private static boolean isDuplicateKey(StreamReadException ex) {
		String message = ex.getOriginalMessage();
		return message != null && message.startsWith("Duplicate Object property");
	}

	// The id of a message refused for a repeated key, read leniently, so that the client can match the error
	private @Nullable Object idOf(byte[] body) {
		try {
			Object lenient = this.jsonMapper.readValue(body, Object.class);
			return (lenient instanceof Map<?, ?> fields) ? fields.get("id") : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	private ServerResponse error(HttpStatus status, int code, String message) {
		return error(status, null, code, message);
	}

	private ServerResponse error(HttpStatus status, @Nullable Object id, int code, String message) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", code);
		error.put("message", message);
		Map<String, @Nullable Object> body = new LinkedHashMap<>();
		body.put("jsonrpc", McpSchema.JSONRPC_VERSION);
		body.put("id", id);
		body.put("error", error);
		return ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.body(json(body));
	}

	/**
	 * A live session, the principal that started it (if authenticated), the time it was last used and the streams
	 * open on it.
	 */
	private final class LiveSession {

		private final McpStreamableServerSession session;

		private final @Nullable String owner;

		private volatile Instant lastUsed;

		private final Set<SseStream> streams = ConcurrentHashMap.newKeySet();

		LiveSession(McpStreamableServerSession session, @Nullable String owner, Instant lastUsed) {
			this.session = session;
			this.owner = owner;
			this.lastUsed = lastUsed;
		}

		McpStreamableServerSession session() {
			return this.session;
		}

		// A session started anonymously belongs to nobody in particular; one started by a principal only to it
		boolean belongsTo(@Nullable String principalName) {
			return this.owner == null || this.owner.equals(principalName);
		}

		Duration idleSince(Instant now) {
			return Duration.between(this.lastUsed, now);
		}

		void touch(Instant now) {
			this.lastUsed = now;
		}

		SseStream open(ServerResponse.SseBuilder sse) {
			SseStream stream = new SseStream(sse, this);
			this.streams.add(stream);
			return stream;
		}

		void closeStreams() {
			for (SseStream stream : List.copyOf(this.streams)) {
				stream.close();
			}
		}

		void abandonStreams() {
			for (SseStream stream : List.copyOf(this.streams)) {
				stream.abandon();
			}
		}

	}

	/**
	 * One server-sent-events response: a request's answer or the session's listening stream.
	 */
	private final class SseStream implements McpStreamableServerTransport {

		private final ServerResponse.SseBuilder sse;

		private final LiveSession owner;

		private final ReentrantLock lock = new ReentrantLock();

		private volatile boolean closed;

		private volatile @Nullable Runnable onCompleted;

		// The thread running this stream's request (the SDK runs a servlet's calls on it), while it runs
		private @Nullable Thread call;

		private volatile boolean abandoned;

		SseStream(ServerResponse.SseBuilder sse, LiveSession owner) {
			this.sse = sse;
			this.owner = owner;
			sse.onError((ex) -> {
				logger.debug("MCP client disconnected: {}", ex.getClass().getSimpleName());
				abandon();
			});
			sse.onTimeout(this::close);
			sse.onComplete(this::completed);
		}

		void onCompleted(Runnable action) {
			this.onCompleted = action;
		}

		private void completed() {
			this.owner.streams.remove(this);
			Runnable action = this.onCompleted;
			if (action != null) {
				action.run();
			}
		}

		@Override
		public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
			return sendMessage(message, null);
		}

		@Override
		public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, @Nullable String messageId) {
			return Mono.fromRunnable(() -> {
				this.lock.lock();
				try {
					if (this.closed) {
						return;
					}
					String id = (messageId != null) ? messageId : this.owner.session.getId();
					this.sse.id(id).event(MESSAGE_EVENT).data(json(bounded(message)));
				}
				catch (IOException | UncheckedIOException ex) {
					logger.debug("MCP client disconnected before a message was sent: {}",
							ex.getClass().getSimpleName());
					closeQuietly();
				}
				catch (RuntimeException ex) {
					logger.warn("MCP transport failed to send a message: {}", ex.getClass().getSimpleName());
					closeQuietly();
				}
				finally {
					this.lock.unlock();
				}
			});
		}

		void callStarted() {
			this.lock.lock();
			try {
				this.call = Thread.currentThread();
			}
			finally {
				this.lock.unlock();
			}
		}

		void callEnded() {
			this.lock.lock();
			try {
				this.call = null;
			}
			finally {
				this.lock.unlock();
			}
			// An interrupt meant for the call may have come as it ended: the pooled thread must not keep it
			Thread.interrupted();
		}

		boolean isClosed() {
			return this.closed;
		}

		boolean isAbandoned() {
			return this.abandoned;
		}

		// The client went away, or the server is stopping: the stream ends, and so does the call still running for it
		void abandon() {
			this.lock.lock();
			try {
				this.abandoned = true;
				closeQuietly();
				Thread running = this.call;
				if (running != null) {
					running.interrupt();
				}
			}
			finally {
				this.lock.unlock();
			}
		}

		void ping() {
			if (!this.lock.tryLock()) {
				return;
			}
			boolean failed = false;
			try {
				if (!this.closed) {
					this.sse.comment("keep-alive").send();
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("MCP client disconnected: {}", ex.getClass().getSimpleName());
				failed = true;
			}
			finally {
				this.lock.unlock();
			}
			if (failed) {
				abandon();
			}
		}

		void open() {
			this.lock.lock();
			try {
				if (!this.closed) {
					this.sse.comment("stream open").send();
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("MCP client disconnected before its stream opened: {}", ex.getClass().getSimpleName());
				closeQuietly();
			}
			finally {
				this.lock.unlock();
			}
		}

		@Override
		public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
			return jsonMapper.convertValue(data, typeRef);
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.fromRunnable(this::close);
		}

		@Override
		public void close() {
			this.lock.lock();
			try {
				closeQuietly();
			}
			finally {
				this.lock.unlock();
			}
		}

		private void closeQuietly() {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.owner.streams.remove(this);
			try {
				this.sse.complete();
			}
			catch (RuntimeException ex) {
				logger.debug("Completing an MCP stream failed: {}", ex.getClass().getSimpleName());
			}
		}

	}

	private static final class BodyTooLargeException extends IOException {

		BodyTooLargeException() {
			super("body too large", null);
		}

	}

	/**
	 * Builds a {@link HardenedStreamableHttpTransport}.
	 */
	public static final class Builder {

		private final McpJsonMapper jsonMapper;

		private String endpoint = "/mcp";

		private List<String> allowedOrigins = McpRequestGuard.LOCAL_ORIGINS;

		private List<String> allowedHosts = McpRequestGuard.LOCAL_HOSTS;

		private long maxRequestBytes = 4L * 1024 * 1024;

		private Duration sessionIdleTimeout = Duration.ofMinutes(30);

		private int maxSessions = 1000;

		private Clock clock = Clock.systemUTC();

		private McpToolVisibility toolVisibility = McpToolVisibility.ALL;
		private Duration keepAliveInterval = DEFAULT_KEEP_ALIVE_INTERVAL;

		private Builder(McpJsonMapper jsonMapper) {
			this.jsonMapper = jsonMapper;
		}

		/**
		 * Sets the endpoint path (default {@code /mcp}).
		 * @param endpoint the path
		 * @return this builder
		 */
		public Builder endpoint(String endpoint) {
			this.endpoint = endpoint;
			return this;
		}

		/**
		 * Sets the origins a browser page may call from (default: localhost origins).
		 * @param allowedOrigins the origin patterns
		 * @return this builder
		 */
		public Builder allowedOrigins(List<String> allowedOrigins) {
			this.allowedOrigins = List.copyOf(allowedOrigins);
			return this;
		}

		/**
		 * Sets the host names the server answers to (default: loopback names).
		 * @param allowedHosts the host names or addresses, {@code *} for any
		 * @return this builder
		 */
		public Builder allowedHosts(List<String> allowedHosts) {
			this.allowedHosts = List.copyOf(allowedHosts);
			return this;
		}

		/**
		 * Sets the largest message accepted (default 4 MB).
		 * @param maxRequestBytes the limit in bytes
		 * @return this builder
		 */
		public Builder maxRequestBytes(long maxRequestBytes) {
			this.maxRequestBytes = maxRequestBytes;
			return this;
		}

		/**
		 * Sets how long an unused session lives (default 30 minutes).
		 * @param sessionIdleTimeout the idle timeout
		 * @return this builder
		 */
		public Builder sessionIdleTimeout(Duration sessionIdleTimeout) {
			this.sessionIdleTimeout = sessionIdleTimeout;
			return this;
		}

		/**
		 * Sets the number of live sessions at most (default 1000).
		 * @param maxSessions the limit
		 * @return this builder
		 */
		public Builder maxSessions(int maxSessions) {
			this.maxSessions = maxSessions;
			return this;
		}

		/**
		 * Sets the clock that session expiry reads.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Sets which tools a caller sees in its {@code tools/list} (default: all).
		 * @param toolVisibility decides per tool and caller
		 * @return this builder
		 */
		public Builder toolVisibility(McpToolVisibility toolVisibility) {
			this.toolVisibility = toolVisibility;
			return this;
		}

		/**
		 * Sets how often every open stream gets a keep-alive comment (default 15 seconds), which is how the server
		 * learns that a client went away while its call was still running: the stream and the call then end.
		 * {@link Duration#ZERO} sends none.
		 * @param keepAliveInterval the interval
		 * @return this builder
		 */
		public Builder keepAliveInterval(Duration keepAliveInterval) {
			this.keepAliveInterval = keepAliveInterval;
			return this;
		}

		/**
		 * Builds the transport.
		 * @return the transport
		 */
		public HardenedStreamableHttpTransport build() {
			return new HardenedStreamableHttpTransport(this);
		}

	}

}
