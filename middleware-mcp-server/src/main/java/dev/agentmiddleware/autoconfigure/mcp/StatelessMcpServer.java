package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Serves MCP revision {@code 2026-07-28} on the endpoint of the
 * {@link HardenedStreamableHttpTransport}, beside the sessions of {@code 2025-11-25}: a
 * request whose {@code MCP-Protocol-Version} header names the revision, or a
 * {@code server/discover}, is answered here, statelessly. Every request stands on its
 * own: the transport's edge checks (Host, Origin, size, JSON) have passed, the principal
 * is the request's, and its {@code _meta} carries the protocol version and the client's
 * capabilities (and info). The rules of the revision:
 * <ul>
 * <li>{@code MCP-Protocol-Version} is required and must equal {@code _meta}'s
 * {@code io.modelcontextprotocol/protocolVersion}, {@code Mcp-Method} must equal the
 * method, {@code Mcp-Name} the {@code params.name} of {@code tools/call} and
 * {@code prompts/get} or the {@code params.uri} of {@code resources/read} (values
 * compared exactly, after trimming): else 400 and {@code -32020} (header mismatch);</li>
 * <li>a {@code _meta} without protocol version or client capabilities: 400 and
 * {@code -32602};</li>
 * <li>a version other than {@code 2026-07-28}: 400 and {@code -32022} with the supported
 * versions and the requested one;</li>
 * <li>{@code server/discover} answers the versions, the capabilities of what is served,
 * the instructions, and the server's name and version in {@code _meta};</li>
 * <li>every result carries {@code resultType: "complete"}; the results of
 * {@code server/discover}, the lists and {@code resources/read} carry {@code ttlMs: 0}
 * and {@code cacheScope: "private"} (a {@code tools/list} depends on the caller), their
 * items in a deterministic order;</li>
 * <li>{@code tools/call} is answered on an SSE stream: its progress notifications, then
 * its result; a client that closes the stream cancels the call through the chain;</li>
 * <li>methods the revision removed ({@code initialize}, {@code ping},
 * {@code logging/setLevel}, {@code resources/subscribe}, {@code resources/unsubscribe}),
 * and unknown or unserved methods: 404 and {@code -32601}.</li>
 * </ul>
 * What is served comes from one seam, the {@link StatelessMcpCatalog}: the same tool,
 * resource, prompt and completion specifications Spring AI's MCP server is given, so a
 * tool call runs through the same governed chain ({@link McpToolHandler}) on both
 * revisions. A handler's request to its client (elicitation, sampling, roots) is a multi
 * round-trip request on {@code tools/call}, {@code prompts/get} and
 * {@code resources/read}: {@link StatelessMcpInputs}. The tasks extension
 * ({@code tasks/get}, {@code tasks/update}, {@code tasks/cancel}, whose {@code Mcp-Name}
 * is the {@code taskId}) is {@link StatelessMcpTasks}; a task tool that gathers its input
 * by {@code input_required} rounds before its task is {@link StatelessMcpTaskEscalation}.
 * <p>
 * {@code subscriptions/listen} streams are kept by {@link StatelessMcpSubscriptions};
 * {@code Mcp-Param-*} headers are checked by {@link McpParamHeaders}. A
 * {@code tools/call} whose tool needs a client capability the request did not declare (an
 * uncaught {@code ToolClientUnavailableException}) is answered {@code -32021}, with
 * status 400 as long as nothing was written on its stream yet: its stream is committed by
 * its first notification or keep-alive comment.
 * <p>
 * This class checks a request against the rules above and dispatches it by method:
 * {@code tools/call} to {@link StatelessMcpToolCalls}, the requests that read the catalog
 * to {@link StatelessMcpCatalogRequests}; {@link StatelessMcpResponses} writes the
 * responses.
 */
final class StatelessMcpServer {

	/** The revision served here. */
	static final String PROTOCOL_VERSION = "2026-07-28";

	/** The JSON-RPC code of a header that does not match the body. */
	static final int HEADER_MISMATCH = -32020;

	/** The JSON-RPC code of a protocol version the server does not speak. */
	static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	static final String METHOD_DISCOVER = "server/discover";

	static final List<String> PROTOCOL_VERSIONS = List.of(PROTOCOL_VERSION);

	private static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

	private static final Set<String> REMOVED = Set.of(McpSchema.METHOD_INITIALIZE, McpSchema.METHOD_PING,
			McpSchema.METHOD_LOGGING_SET_LEVEL, McpSchema.METHOD_RESOURCES_SUBSCRIBE,
			McpSchema.METHOD_RESOURCES_UNSUBSCRIBE);

	private static final int MAX_ECHOED_VERSION_LENGTH = 64;

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final Supplier<StatelessMcpCatalog> catalogSource;

	private final StatelessMcpTasks tasks;

	private final StatelessMcpInputs inputs;

	private final StatelessMcpResponses responses;

	private final StatelessMcpCatalogRequests catalogRequests;

	private final StatelessMcpToolCalls toolCalls;

	private volatile @Nullable StatelessMcpCatalog catalog;

	// The subscriptions/listen streams, and the capabilities the MCP server notifies
	private final StatelessMcpSubscriptions subscriptions;

	private final Supplier<McpSchema.@Nullable ServerCapabilities> notified;

	StatelessMcpServer(McpJsonMapper jsonMapper, Supplier<StatelessMcpCatalog> catalog,
			McpToolVisibility toolVisibility, StatelessMcpTasks tasks,
			Supplier<McpSchema.@Nullable ServerCapabilities> notified, McpRequestStates requestStates,
			Duration roundTime) {
		this.jsonMapper = jsonMapper;
		this.catalogSource = catalog;
		this.tasks = tasks;
		this.subscriptions = new StatelessMcpSubscriptions(jsonMapper);
		this.notified = notified;
		this.inputs = new StatelessMcpInputs(jsonMapper, requestStates, roundTime);
		this.responses = new StatelessMcpResponses(jsonMapper);
		this.catalogRequests = new StatelessMcpCatalogRequests(jsonMapper, toolVisibility, tasks, this.inputs,
				this.responses);
		this.toolCalls = new StatelessMcpToolCalls(jsonMapper, tasks, this.inputs, this.responses);
	}

	/**
	 * Whether a request's {@code MCP-Protocol-Version} header names the revision served
	 * here.
	 * @param request the request
	 * @return {@code true} for {@code 2026-07-28}
	 */
	static boolean speaks(ServerRequest request) {
		String version = request.headers().asHttpHeaders().getFirst(McpRequestValidator.PROTOCOL_VERSION_HEADER);
		return version != null && PROTOCOL_VERSIONS.contains(version.trim());
	}

	/**
	 * Whether a message is for this server: its header names the revision, or it is a
	 * {@code server/discover}, which only the revision has.
	 * @param request the request
	 * @param message its message
	 * @return {@code true} to {@link #serve} it
	 */
	static boolean serves(ServerRequest request, McpSchema.JSONRPCMessage message) {
		return speaks(request)
				|| (message instanceof McpSchema.JSONRPCRequest rpc && METHOD_DISCOVER.equals(rpc.method()));
	}

	/**
	 * Answers one message of the revision.
	 * @param message the message, read and checked by the transport
	 * @param request its HTTP request
	 * @return the response: JSON, or an SSE stream for {@code tools/call}
	 */
	ServerResponse serve(McpSchema.JSONRPCMessage message, ServerRequest request) {
		if (!(message instanceof McpSchema.JSONRPCRequest rpc)) {
			// The revision has no notification nor response a server acts on (a client
			// cancels by closing the stream)
			return ServerResponse.accepted().build();
		}
		Object id = rpc.id();
		Map<?, ?> params = (rpc.params() instanceof Map<?, ?> map) ? map : Map.of();
		String version = header(request, "MCP-Protocol-Version");
		if (version == null) {
			return this.responses.error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH,
					"Header mismatch: the MCP-Protocol-Version header is required", null);
		}
		String mismatch = headerMismatch(request, rpc.method(), params);
		if (mismatch != null) {
			return this.responses.error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH, mismatch, null);
		}
		Map<?, ?> meta = (params.get("_meta") instanceof Map<?, ?> map) ? map : Map.of();
		if (!(meta.get(META_PROTOCOL_VERSION) instanceof String metaVersion)
				|| !(meta.get(StatelessMcpRequestMeta.META_CLIENT_CAPABILITIES) instanceof Map)) {
			return this.responses.error(HttpStatus.BAD_REQUEST, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: _meta must carry the protocol version and the client capabilities", null);
		}
		if (!metaVersion.equals(version)) {
			return this.responses.error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH,
					"Header mismatch: MCP-Protocol-Version differs from the protocol version in _meta", null);
		}
		if (!PROTOCOL_VERSIONS.contains(version)) {
			String requested = (version.length() <= MAX_ECHOED_VERSION_LENGTH) ? version
					: version.substring(0, MAX_ECHOED_VERSION_LENGTH);
			return this.responses.error(HttpStatus.BAD_REQUEST, id, UNSUPPORTED_PROTOCOL_VERSION,
					"Unsupported protocol version", Map.of("supported", PROTOCOL_VERSIONS, "requested", requested));
		}
		StatelessMcpRequestMeta requestMeta;
		try {
			requestMeta = StatelessMcpRequestMeta.of(this.jsonMapper, meta);
		}
		catch (RuntimeException ex) {
			return this.responses.error(HttpStatus.BAD_REQUEST, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: _meta client capabilities, client info or log level are malformed", null);
		}
		try {
			return answer(rpc, params, requestMeta, request);
		}
		catch (McpError ex) {
			McpSchema.JSONRPCResponse.JSONRPCError error = ex.getJsonRpcError();
			return this.responses.error(HttpStatus.OK, id, error.code(), error.message(), error.data());
		}
		catch (IllegalArgumentException ex) {
			return this.responses.error(HttpStatus.OK, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: the params of " + McpLogText.of(rpc.method()) + " are malformed", null);
		}
		catch (RuntimeException ex) {
			logger.warn("MCP {} request {} failed: {}", PROTOCOL_VERSION, McpLogText.of(rpc.method()),
					ex.getClass().getSimpleName());
			return this.responses.error(HttpStatus.INTERNAL_SERVER_ERROR, id, McpSchema.ErrorCodes.INTERNAL_ERROR,
					"Internal error: the request could not be answered", null);
		}
	}

	/**
	 * Writes a keep-alive comment on the stream of every call running, so that a call
	 * whose client closed its stream is cancelled.
	 */
	void ping() {
		this.toolCalls.ping();
		this.subscriptions.ping();
	}

	/**
	 * Passes on a notification the MCP server sends every client: a list change is served
	 * from then on (the catalog is read again) and reaches the subscriptions that asked
	 * for it.
	 * @param method the notification's method
	 * @param params its params
	 */
	void notifyClients(String method, @Nullable Object params) {
		if (method.endsWith("/list_changed")) {
			this.catalog = null;
		}
		this.subscriptions.notifyClients(method, params);
	}

	/**
	 * Tells the subscriptions that name a resource that it changed.
	 * @param uri the resource's URI
	 */
	void resourceUpdated(String uri) {
		this.subscriptions.resourceUpdated(uri);
	}

	/**
	 * Ends every subscription, as the server stops.
	 */
	void endSubscriptions() {
		this.subscriptions.endAll();
	}

	private ServerResponse answer(McpSchema.JSONRPCRequest rpc, Map<?, ?> params, StatelessMcpRequestMeta meta,
			ServerRequest request) {
		StatelessMcpCatalog catalog = catalog();
		Object id = rpc.id();
		String method = rpc.method();
		ToolPrincipal principal = ToolPrincipals.of(request.servletRequest().getUserPrincipal());
		// The round of a request that may answer input_required: its inputs checked
		// first (-32602)
		McpInputRound round = this.inputs.open(method, params, (principal != null) ? principal.name() : null,
				meta.capabilities());
		switch (method) {
			case METHOD_DISCOVER:
				return this.catalogRequests.discover(id, catalog, capabilities(catalog));
			case StatelessMcpSubscriptions.METHOD_LISTEN:
				return this.subscriptions.listen(id, params, capabilities(catalog));
			case McpSchema.METHOD_TOOLS_LIST:
				if (!catalog.tools().isEmpty()) {
					return this.catalogRequests.listTools(id, catalog, principal);
				}
				break;
			case McpSchema.METHOD_TOOLS_CALL:
				if (!catalog.tools().isEmpty()) {
					return this.toolCalls.call(catalog, rpc, params, meta, request, principal, round);
				}
				break;
			case StatelessMcpTasks.METHOD_GET, StatelessMcpTasks.METHOD_UPDATE, StatelessMcpTasks.METHOD_CANCEL:
				// The tasks extension (SEP-2663), served with the tools
				if (!catalog.tools().isEmpty()) {
					return this.responses.json(HttpStatus.OK,
							McpSchema.JSONRPCResponse.result(id, this.tasks.answer(method, params, principal)));
				}
				break;
			case McpSchema.METHOD_RESOURCES_LIST:
				if (StatelessMcpCatalogRequests.servesResources(catalog)) {
					return this.catalogRequests.listResources(id, catalog);
				}
				break;
			case McpSchema.METHOD_RESOURCES_TEMPLATES_LIST:
				if (StatelessMcpCatalogRequests.servesResources(catalog)) {
					return this.catalogRequests.listResourceTemplates(id, catalog);
				}
				break;
			case McpSchema.METHOD_RESOURCES_READ:
				if (StatelessMcpCatalogRequests.servesResources(catalog)) {
					return this.catalogRequests.read(catalog, rpc, params, meta, request, principal, round);
				}
				break;
			case McpSchema.METHOD_PROMPT_LIST:
				if (!catalog.prompts().isEmpty()) {
					return this.catalogRequests.listPrompts(id, catalog);
				}
				break;
			case McpSchema.METHOD_PROMPT_GET:
				if (!catalog.prompts().isEmpty()) {
					return this.catalogRequests.getPrompt(catalog, rpc, params, meta, request, principal, round);
				}
				break;
			case McpSchema.METHOD_COMPLETION_COMPLETE:
				if (!catalog.completions().isEmpty()) {
					return this.catalogRequests.complete(catalog, rpc, params, meta, request, principal);
				}
				break;
			default:
				break;
		}
		String message = REMOVED.contains(method)
				? "Method not found: " + method + " was removed in " + PROTOCOL_VERSION : "Method not found";
		return this.responses.error(HttpStatus.NOT_FOUND, id, McpSchema.ErrorCodes.METHOD_NOT_FOUND, message, null);
	}

	private McpSchema.ServerCapabilities capabilities(StatelessMcpCatalog catalog) {
		return StatelessMcpSubscriptions.capabilities(catalog.capabilities(), this.notified.get());
	}

	// The standard headers of the revision must say what the body says (SEP-2243)
	private static @Nullable String headerMismatch(ServerRequest request, String method, Map<?, ?> params) {
		String methodHeader = header(request, "Mcp-Method");
		if (!method.equals(methodHeader)) {
			return "Header mismatch: the Mcp-Method header must equal the method of the body";
		}
		Object name = switch (method) {
			case McpSchema.METHOD_TOOLS_CALL, McpSchema.METHOD_PROMPT_GET -> params.get("name");
			case McpSchema.METHOD_RESOURCES_READ -> params.get("uri");
			case StatelessMcpTasks.METHOD_GET, StatelessMcpTasks.METHOD_UPDATE, StatelessMcpTasks.METHOD_CANCEL ->
				params.get("taskId");
			default -> null;
		};
		if (name instanceof String value && !value.equals(header(request, "Mcp-Name"))) {
			return "Header mismatch: the Mcp-Name header must equal the "
					+ (McpSchema.METHOD_RESOURCES_READ.equals(method) ? "uri"
							: method.startsWith("tasks/") ? "taskId" : "name")
					+ " in the body";
		}
		return null;
	}

	private static @Nullable String header(ServerRequest request, String name) {
		String value = request.headers().firstHeader(name);
		return (value != null) ? value.trim() : null;
	}

	private StatelessMcpCatalog catalog() {
		StatelessMcpCatalog catalog = this.catalog;
		if (catalog == null) {
			catalog = this.catalogSource.get();
			this.catalog = catalog;
		}
		return catalog;
	}

	/**
	 * Writes a response of the revision.
	 * @param jsonMapper the MCP JSON mapper
	 * @param response the response
	 * @return its JSON
	 */
	static String json(McpJsonMapper jsonMapper, McpSchema.JSONRPCResponse response) {
		return StatelessMcpResponses.json(jsonMapper, response);
	}

}
