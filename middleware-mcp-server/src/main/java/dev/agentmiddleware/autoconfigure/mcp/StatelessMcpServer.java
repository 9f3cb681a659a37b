package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.util.DefaultMcpUriTemplateManager;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
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
 */
final class StatelessMcpServer {

	/** The revision served here. */
	static final String PROTOCOL_VERSION = "2026-07-28";

	/** The JSON-RPC code of a header that does not match the body. */
	static final int HEADER_MISMATCH = -32020;

	/** The JSON-RPC code of a protocol version the server does not speak. */
	static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	static final String METHOD_DISCOVER = "server/discover";

	private static final List<String> PROTOCOL_VERSIONS = List.of(PROTOCOL_VERSION);

	private static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

	private static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	private static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

	private static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

	private static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

	private static final Set<String> REMOVED = Set.of(McpSchema.METHOD_INITIALIZE, McpSchema.METHOD_PING,
			McpSchema.METHOD_LOGGING_SET_LEVEL, McpSchema.METHOD_RESOURCES_SUBSCRIBE,
			McpSchema.METHOD_RESOURCES_UNSUBSCRIBE);

	private static final int MAX_ECHOED_VERSION_LENGTH = 64;

	private static final TypeRef<LinkedHashMap<String, Object>> MAP = new TypeRef<>() {
	};

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final Supplier<StatelessMcpCatalog> catalogSource;

	private final McpToolVisibility toolVisibility;

	private final StatelessMcpTasks tasks;

	private final StatelessMcpInputs inputs;

	private final StatelessMcpTaskEscalation escalation;

	private volatile @Nullable StatelessMcpCatalog catalog;

	// The streams of the calls running, for the keep-alive that finds a client gone
	private final Set<StatelessMcpStream> streams = ConcurrentHashMap.newKeySet();

	// The subscriptions/listen streams, and the capabilities the MCP server notifies
	private final StatelessMcpSubscriptions subscriptions;

	private final Supplier<McpSchema.@Nullable ServerCapabilities> notified;

	StatelessMcpServer(McpJsonMapper jsonMapper, Supplier<StatelessMcpCatalog> catalog,
			McpToolVisibility toolVisibility, StatelessMcpTasks tasks,
			Supplier<McpSchema.@Nullable ServerCapabilities> notified, McpRequestStates requestStates,
			Duration roundTime) {
		this.jsonMapper = jsonMapper;
		this.catalogSource = catalog;
		this.toolVisibility = toolVisibility;
		this.tasks = tasks;
		this.subscriptions = new StatelessMcpSubscriptions(jsonMapper);
		this.notified = notified;
		this.inputs = new StatelessMcpInputs(jsonMapper, requestStates, roundTime);
		this.escalation = new StatelessMcpTaskEscalation(jsonMapper, tasks, this.inputs, this.streams);
	}

	/**
	 * Whether a request's {@code MCP-Protocol-Version} header names the revision served
	 * here.
	 * @param request the request
	 * @return {@code true} for {@code 2026-07-28}
	 */
	static boolean speaks(ServerRequest request) {
		String version = request.headers().firstHeader("MCP-Protocol-Version");
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
			return error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH,
					"Header mismatch: the MCP-Protocol-Version header is required", null);
		}
		String mismatch = headerMismatch(request, rpc.method(), params);
		if (mismatch != null) {
			return error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH, mismatch, null);
		}
		Map<?, ?> meta = (params.get("_meta") instanceof Map<?, ?> map) ? map : Map.of();
		if (!(meta.get(META_PROTOCOL_VERSION) instanceof String metaVersion)
				|| !(meta.get(META_CLIENT_CAPABILITIES) instanceof Map)) {
			return error(HttpStatus.BAD_REQUEST, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: _meta must carry the protocol version and the client capabilities", null);
		}
		if (!metaVersion.equals(version)) {
			return error(HttpStatus.BAD_REQUEST, id, HEADER_MISMATCH,
					"Header mismatch: MCP-Protocol-Version differs from the protocol version in _meta", null);
		}
		if (!PROTOCOL_VERSIONS.contains(version)) {
			String requested = (version.length() <= MAX_ECHOED_VERSION_LENGTH) ? version
					: version.substring(0, MAX_ECHOED_VERSION_LENGTH);
			return error(HttpStatus.BAD_REQUEST, id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
					Map.of("supported", PROTOCOL_VERSIONS, "requested", requested));
		}
		RequestMeta requestMeta;
		try {
			requestMeta = requestMeta(meta);
		}
		catch (RuntimeException ex) {
			return error(HttpStatus.BAD_REQUEST, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: _meta client capabilities, client info or log level are malformed", null);
		}
		try {
			return answer(rpc, params, requestMeta, request);
		}
		catch (McpError ex) {
			McpSchema.JSONRPCResponse.JSONRPCError error = ex.getJsonRpcError();
			return error(HttpStatus.OK, id, error.code(), error.message(), error.data());
		}
		catch (IllegalArgumentException ex) {
			return error(HttpStatus.OK, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: the params of " + McpLogText.of(rpc.method()) + " are malformed", null);
		}
		catch (RuntimeException ex) {
			logger.warn("MCP {} request {} failed: {}", PROTOCOL_VERSION, McpLogText.of(rpc.method()),
					ex.getClass().getSimpleName());
			return error(HttpStatus.INTERNAL_SERVER_ERROR, id, McpSchema.ErrorCodes.INTERNAL_ERROR,
					"Internal error: the request could not be answered", null);
		}
	}

	/**
	 * Writes a keep-alive comment on the stream of every call running, so that a call
	 * whose client closed its stream is cancelled.
	 */
	void ping() {
		for (StatelessMcpStream stream : this.streams) {
			stream.ping();
		}
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

	private ServerResponse answer(McpSchema.JSONRPCRequest rpc, Map<?, ?> params, RequestMeta meta,
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
				return result(id, method, discover(catalog));
			case StatelessMcpSubscriptions.METHOD_LISTEN:
				return this.subscriptions.listen(id, params, capabilities(catalog));
			case McpSchema.METHOD_TOOLS_LIST:
				if (!catalog.tools().isEmpty()) {
					List<Map<String, Object>> tools = catalog.tools()
						.stream()
						.map(SyncToolSpecification::tool)
						.filter((tool) -> this.toolVisibility.isVisible(tool.name(), principal))
						.map(this.tasks::listed)
						.toList();
					return result(id, method, Map.of("tools", tools));
				}
				break;
			case McpSchema.METHOD_TOOLS_CALL:
				if (!catalog.tools().isEmpty()) {
					return call(catalog, rpc, params, meta, request, principal, round);
				}
				break;
			case StatelessMcpTasks.METHOD_GET, StatelessMcpTasks.METHOD_UPDATE, StatelessMcpTasks.METHOD_CANCEL:
				// The tasks extension (SEP-2663), served with the tools
				if (!catalog.tools().isEmpty()) {
					return json(HttpStatus.OK,
							McpSchema.JSONRPCResponse.result(id, this.tasks.answer(method, params, principal)));
				}
				break;
			case McpSchema.METHOD_RESOURCES_LIST:
				if (servesResources(catalog)) {
					return result(id, method, Map.of("resources",
							catalog.resources().stream().map(SyncResourceSpecification::resource).toList()));
				}
				break;
			case McpSchema.METHOD_RESOURCES_TEMPLATES_LIST:
				if (servesResources(catalog)) {
					return result(id, method,
							Map.of("resourceTemplates",
									catalog.resourceTemplates()
										.stream()
										.map(SyncResourceTemplateSpecification::resourceTemplate)
										.toList()));
				}
				break;
			case McpSchema.METHOD_RESOURCES_READ:
				if (servesResources(catalog)) {
					return rounded(round, rpc, params, principal,
							() -> read(catalog, params, exchange(meta, request, principal, null, null, round)));
				}
				break;
			case McpSchema.METHOD_PROMPT_LIST:
				if (!catalog.prompts().isEmpty()) {
					return result(id, method, Map.of("prompts",
							catalog.prompts().stream().map(SyncPromptSpecification::prompt).toList()));
				}
				break;
			case McpSchema.METHOD_PROMPT_GET:
				if (!catalog.prompts().isEmpty()) {
					McpSchema.GetPromptRequest get = this.jsonMapper.convertValue(params,
							McpSchema.GetPromptRequest.class);
					SyncPromptSpecification prompt = (get.name() != null) ? catalog.prompt(get.name()) : null;
					if (prompt == null) {
						return error(HttpStatus.OK, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
								"Invalid params: no such prompt", null);
					}
					return rounded(round, rpc, params, principal, () -> prompt.promptHandler()
						.apply(exchange(meta, request, principal, null, null, round), get));
				}
				break;
			case McpSchema.METHOD_COMPLETION_COMPLETE:
				if (!catalog.completions().isEmpty()) {
					McpSchema.CompleteRequest complete = this.jsonMapper.convertValue(params,
							McpSchema.CompleteRequest.class);
					SyncCompletionSpecification completion = (complete.ref() != null)
							? catalog.completion(complete.ref()) : null;
					if (completion == null) {
						return error(HttpStatus.OK, id, HardenedStreamableHttpTransport.INVALID_PARAMS,
								"Invalid params: no completion for this reference", null);
					}
					return result(id, method, completion.completionHandler()
						.apply(exchange(meta, request, principal, null, null), complete));
				}
				break;
			default:
				break;
		}
		String message = REMOVED.contains(method)
				? "Method not found: " + method + " was removed in " + PROTOCOL_VERSION : "Method not found";
		return error(HttpStatus.NOT_FOUND, id, McpSchema.ErrorCodes.METHOD_NOT_FOUND, message, null);
	}

	// The result of a handler that may ask its client: input_required when it did
	private ServerResponse rounded(@Nullable McpInputRound round, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			@Nullable ToolPrincipal principal, Supplier<Object> handler) {
		Object result;
		try {
			result = handler.get();
		}
		catch (RuntimeException ex) {
			Map<String, Object> inputRequired = this.inputs.ended(round, rpc.method(), params,
					(principal != null) ? principal.name() : null);
			if (inputRequired == null) {
				throw ex;
			}
			return json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(rpc.id(), inputRequired));
		}
		StatelessMcpInputs.checkAnswers(round);
		return result(rpc.id(), rpc.method(), result);
	}

	private static boolean servesResources(StatelessMcpCatalog catalog) {
		return !catalog.resources().isEmpty() || !catalog.resourceTemplates().isEmpty();
	}

	private Map<String, Object> discover(StatelessMcpCatalog catalog) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("supportedVersions", PROTOCOL_VERSIONS);
		result.put("capabilities", this.tasks.capabilities(capabilities(catalog), !catalog.tools().isEmpty()));
		if (catalog.instructions() != null) {
			result.put("instructions", catalog.instructions());
		}
		result.put("_meta", Map.of(META_SERVER_INFO, catalog.serverInfo()));
		return result;
	}

	private McpSchema.ServerCapabilities capabilities(StatelessMcpCatalog catalog) {
		return StatelessMcpSubscriptions.capabilities(catalog.capabilities(), this.notified.get());
	}

	private McpSchema.ReadResourceResult read(StatelessMcpCatalog catalog, Map<?, ?> params,
			McpSyncServerExchange exchange) {
		McpSchema.ReadResourceRequest read = this.jsonMapper.convertValue(params, McpSchema.ReadResourceRequest.class);
		String uri = read.uri();
		if (uri != null) {
			for (SyncResourceSpecification resource : catalog.resources()) {
				if (resource.resource().uri().equals(uri)) {
					return resource.readHandler().apply(exchange, read);
				}
			}
			for (SyncResourceTemplateSpecification template : catalog.resourceTemplates()) {
				if (new DefaultMcpUriTemplateManager(template.resourceTemplate().uriTemplate()).matches(uri)) {
					return template.readHandler().apply(exchange, read);
				}
			}
		}
		// SEP-2164: -32602 with the URI, never an empty result
		throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.INVALID_PARAMS,
				"Resource not found", (uri != null) ? Map.of("uri", uri) : null));
	}

	// tools/call: on an SSE stream, its progress and then its result; the call is
	// cancelled when its client closes the stream
	private ServerResponse call(StatelessMcpCatalog catalog, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			RequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal, @Nullable McpInputRound round) {
		McpSchema.CallToolRequest callRequest = this.jsonMapper.convertValue(params, McpSchema.CallToolRequest.class);
		SyncToolSpecification tool = (callRequest.name() != null) ? catalog.tool(callRequest.name()) : null;
		if (tool == null || !(params.get("arguments") == null || params.get("arguments") instanceof Map)) {
			return error(HttpStatus.OK, rpc.id(), HardenedStreamableHttpTransport.INVALID_PARAMS,
					(tool == null) ? "Invalid params: unknown tool" : "Invalid params: the arguments must be an object",
					null);
		}
		String headerMismatch = McpParamHeaders.mismatch(tool.tool(), callRequest.arguments(), request);
		if (headerMismatch != null) {
			return error(HttpStatus.BAD_REQUEST, rpc.id(), HEADER_MISMATCH, headerMismatch, null);
		}
		if (this.tasks.runsAsTask(tool, params)) {
			if (round != null && StatelessMcpTaskEscalation.gathersInputFirst(tool)) {
				// Its input by input_required rounds first, then the task
				return this.escalation.call(tool, rpc, callRequest, round,
						new StatelessMcpTaskEscalation.Client(meta.capabilities(), meta.clientInfo(), meta.logLevel()),
						request, principal);
			}
			return json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(rpc.id(), this.tasks.start(tool, callRequest,
					params, principal, McpRequestBaseUrls.of(request.servletRequest()))));
		}
		return StatelessMcpStream.sse((sse, response) -> {
			CallCancellation cancellation = new CallCancellation();
			StatelessMcpStream stream = new StatelessMcpStream(sse, cancellation);
			this.streams.add(stream);
			try {
				McpSchema.CallToolResult result;
				try {
					result = tool.callHandler()
						.apply(exchange(meta, request, principal, stream, cancellation, round), callRequest);
					StatelessMcpInputs.checkAnswers(round);
				}
				catch (RuntimeException ex) {
					Map<String, Object> inputRequired = this.inputs.ended(round, rpc.method(), params,
							(principal != null) ? principal.name() : null, ex);
					if (inputRequired == null) {
						throw ex;
					}
					stream.send(json(McpSchema.JSONRPCResponse.result(rpc.id(), inputRequired)));
					return;
				}
				if (!cancellation.isCancelled()) {
					stream.send(json(McpSchema.JSONRPCResponse.result(rpc.id(), shaped(rpc.method(), result))));
				}
			}
			catch (McpError ex) {
				String error = json(McpSchema.JSONRPCResponse.error(rpc.id(), ex.getJsonRpcError()));
				// A missing capability is 400, when the stream has not started yet
				if (ex.getJsonRpcError().code() != StatelessMcpSession.MISSING_REQUIRED_CLIENT_CAPABILITY
						|| !stream.refuse(response, HttpStatus.BAD_REQUEST.value(), error)) {
					stream.send(error);
				}
			}
			catch (RuntimeException ex) {
				if (!stream.isClosed()) {
					logger.warn("MCP {} tools/call failed in the transport: {}", PROTOCOL_VERSION,
							ex.getClass().getSimpleName());
					stream.send(json(McpSchema.JSONRPCResponse.error(rpc.id(),
							new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
									"Internal error: the call could not be answered"))));
				}
			}
			finally {
				this.streams.remove(stream);
				stream.close();
				if (stream.isAbandoned()) {
					// As on a session's stream: the container would leave the request
					// of a client gone open
					McpSessionDispatcher.completeAbandoned(request.servletRequest());
				}
			}
		});
	}

	// The SDK's view of the request, for the handlers Spring AI's server is given: the
	// principal, the base URL and
	// the call's cancellation in its transport context, as on a session's request
	private McpSyncServerExchange exchange(RequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable StatelessMcpStream stream, @Nullable CallCancellation cancellation) {
		return exchange(meta, request, principal, stream, cancellation, null);
	}

	// The round of a request that may answer input_required is in the transport context,
	// and every exchange of the revision is marked stateless
	private McpSyncServerExchange exchange(RequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable StatelessMcpStream stream, @Nullable CallCancellation cancellation,
			@Nullable McpInputRound round) {
		McpRequestContext context = McpRequestContext.ofStateless(principal,
				McpRequestBaseUrls.of(request.servletRequest()), cancellation, round);
		StatelessMcpSession session = new StatelessMcpSession(this.jsonMapper, stream, meta.logLevel(), round);
		return new McpSyncServerExchange(new McpAsyncServerExchange(null, session, meta.capabilities(),
				meta.clientInfo(), context.transportContext()));
	}

	private RequestMeta requestMeta(Map<?, ?> meta) {
		// Only what the client declared in this request counts; its requests to the
		// client are multi round-trip requests (StatelessMcpInputs)
		McpSchema.ClientCapabilities capabilities = this.jsonMapper.convertValue(meta.get(META_CLIENT_CAPABILITIES),
				McpSchema.ClientCapabilities.class);
		Object info = meta.get(META_CLIENT_INFO);
		McpSchema.Implementation clientInfo = (info != null)
				? this.jsonMapper.convertValue(info, McpSchema.Implementation.class) : null;
		Object level = meta.get(META_LOG_LEVEL);
		McpSchema.LoggingLevel logLevel = (level != null)
				? this.jsonMapper.convertValue(level, McpSchema.LoggingLevel.class) : null;
		return new RequestMeta(capabilities, clientInfo, logLevel);
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

	private ServerResponse result(Object id, String method, Object result) {
		return json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(id, shaped(method, result)));
	}

	// Every result says it is complete; those a client may cache say for how long and for
	// whom
	private Map<String, Object> shaped(String method, Object result) {
		Map<String, Object> shaped = this.jsonMapper.convertValue(result, MAP);
		shaped.put("resultType", "complete");
		if (isCacheable(method)) {
			shaped.put("ttlMs", 0);
			shaped.put("cacheScope", "private");
		}
		return shaped;
	}

	private static boolean isCacheable(String method) {
		return switch (method) {
			case METHOD_DISCOVER, McpSchema.METHOD_TOOLS_LIST, McpSchema.METHOD_RESOURCES_LIST,
					McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, McpSchema.METHOD_RESOURCES_READ,
					McpSchema.METHOD_PROMPT_LIST ->
				true;
			default -> false;
		};
	}

	private ServerResponse error(HttpStatus status, @Nullable Object id, int code, String message,
			@Nullable Object data) {
		return json(status, new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, id, null,
				new McpSchema.JSONRPCResponse.JSONRPCError(code, message, data)));
	}

	private ServerResponse json(HttpStatus status, McpSchema.JSONRPCResponse response) {
		return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(json(response));
	}

	private String json(McpSchema.JSONRPCResponse response) {
		return json(this.jsonMapper, response);
	}

	/**
	 * Writes a response of the revision.
	 * @param jsonMapper the MCP JSON mapper
	 * @param response the response
	 * @return its JSON
	 */
	static String json(McpJsonMapper jsonMapper, McpSchema.JSONRPCResponse response) {
		try {
			return jsonMapper.writeValueAsString(response);
		}
		catch (IOException ex) {
			throw new IllegalStateException("An MCP response could not be written", ex);
		}
	}

	// What a request's _meta says of its client
	private record RequestMeta(McpSchema.ClientCapabilities capabilities, McpSchema.@Nullable Implementation clientInfo,
			McpSchema.@Nullable LoggingLevel logLevel) {
	}

}
