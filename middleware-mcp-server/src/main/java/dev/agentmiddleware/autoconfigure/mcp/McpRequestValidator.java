package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import static dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport.INVALID_PARAMS;
import static dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport.INVALID_REQUEST;
import static dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport.PARSE_ERROR;
import static dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport.SERVER_ERROR;

/**
 * The checks of the transport on what a client sends, before anything reaches a session:
 * {@code Host} and {@code Origin} through the edge guard, {@code MCP-Protocol-Version},
 * {@code Accept} and {@code Content-Type}, the size limit (413 before the body is
 * parsed), strict JSON (a repeated key is refused), the shape of a JSON-RPC 2.0 message,
 * and the params of {@code initialize} and {@code tools/call}, whose bad params the SDK
 * would answer with a 500 and an exception text. Each refusal is the transport's JSON-RPC
 * error ({@link JsonRpcErrors}). The transport enters it once per {@code POST}
 * ({@link #check}), and once per {@code GET} or {@code DELETE} ({@link #refusal}).
 * Immutable. <pre>{@code
 * McpChecked<CheckedMessage> checked = validator.check(request);
 * // a 5 MB body with a 4 MB limit: checked.refusal() is 413 {"error":{"code":-32000,"message":"Content Too Large: ..."}}
 * }</pre>
 */
final class McpRequestValidator {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	// Parses incoming messages; refuses repeated keys, which a lenient parser would
	// resolve silently to the last one
	private static final JsonMapper STRICT_JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.build();

	// The MCP-Protocol-Version header, named in lower case as the request's headers keep
	// it, so that a lookup of every request needs no lower-case copy of the name
	static final String PROTOCOL_VERSION_HEADER = "mcp-protocol-version";

	// The Accept header of a POST as MCP clients send it
	private static final String JSON_AND_EVENT_STREAM = MediaType.APPLICATION_JSON_VALUE + ", "
			+ MediaType.TEXT_EVENT_STREAM_VALUE;

	// The Content-Type of a POST as MCP clients send it, and as Spring shows it once a
	// character encoding filter gave the request its charset
	private static final List<String> JSON_CONTENT_TYPES = List.of(MediaType.APPLICATION_JSON_VALUE,
			MediaType.APPLICATION_JSON_VALUE + ";charset=UTF-8");

	// The limits of what a client says of itself in initialize: its protocol version (a
	// date such as 2025-06-18;
	// a session store keeps it in a column of 32), its names and version, its other
	// texts, and all of its params
	static final int MAX_PROTOCOL_VERSION_LENGTH = McpSessionRegistry.MAX_PROTOCOL_VERSION_LENGTH;

	static final int MAX_CLIENT_NAME_LENGTH = 256;

	static final int MAX_CLIENT_VERSION_LENGTH = 64;

	static final int MAX_CLIENT_TEXT_LENGTH = 2048;

	static final int MAX_INITIALIZE_PARAMS_LENGTH = 16 * 1024;

	private static final Pattern PROTOCOL_VERSION = Pattern.compile("[A-Za-z0-9._-]+");

	private final McpRequestGuard guard;

	private final long maxRequestBytes;

	private final McpJsonMapper jsonMapper;

	private final JsonRpcErrors errors;

	McpRequestValidator(McpRequestGuard guard, long maxRequestBytes, McpJsonMapper jsonMapper, JsonRpcErrors errors) {
		this.guard = guard;
		this.maxRequestBytes = maxRequestBytes;
		this.jsonMapper = jsonMapper;
		this.errors = errors;
	}

	/**
	 * Checks a {@code POST} and reads its message, in the order of the refusals: the
	 * {@code Host} and {@code Origin} that a request of every protocol revision must
	 * pass; the message ({@link #read}); then, unless the message is served by MCP
	 * {@code 2026-07-28} ({@link StatelessMcpServer#serves}, which checks the rest
	 * itself), the {@code MCP-Protocol-Version} and the params of {@code initialize} and
	 * {@code tools/call}. Bad params are not refused here but carried in the checked
	 * message ({@link CheckedMessage#refusalOfParams}): they are refused once the message
	 * reaches its session, after a missing or unknown session and after a server that
	 * cannot start one.
	 * @param request the {@code POST}
	 * @return the checked message, or the refusal (403, then 406, 415, 413, 400, 200 with
	 * {@code -32602} for a repeated key, then 400 for the protocol version)
	 */
	McpChecked<CheckedMessage> check(ServerRequest request) {
		ServerResponse refused = refusalOfEdge(request);
		if (refused != null) {
			return McpChecked.refused(refused);
		}
		McpChecked<McpSchema.JSONRPCMessage> read = read(request);
		if (read.isRefused()) {
			return McpChecked.refused(read.refusal());
		}
		McpSchema.JSONRPCMessage message = read.value();
		if (StatelessMcpServer.serves(request, message)) {
			return McpChecked.passed(new CheckedMessage(message, true, null, null));
		}
		refused = refusalOfProtocolVersion(request);
		if (refused != null) {
			return McpChecked.refused(refused);
		}
		if (!(message instanceof McpSchema.JSONRPCRequest rpc)) {
			return McpChecked.passed(new CheckedMessage(message, false, null, null));
		}
		if (McpSchema.METHOD_INITIALIZE.equals(rpc.method())) {
			McpChecked<McpSchema.InitializeRequest> params = initializeRequest(rpc);
			return McpChecked.passed(new CheckedMessage(message, false, params.value(), params.refusal()));
		}
		return McpChecked.passed(new CheckedMessage(message, false, null, refusalOfParams(rpc)));
	}

	/**
	 * Checks what every method must pass: {@code Host}, {@code Origin} and
	 * {@code MCP-Protocol-Version}.
	 * @param request the request
	 * @return the refusal (403 or 400), or {@code null} when the request may go on
	 */
	@Nullable ServerResponse refusal(ServerRequest request) {
		ServerResponse refused = refusalOfEdge(request);
		return (refused != null) ? refused : refusalOfProtocolVersion(request);
	}

	private @Nullable ServerResponse refusalOfProtocolVersion(ServerRequest request) {
		if (!this.guard.allowsProtocolVersion(request.headers().asHttpHeaders().getFirst(PROTOCOL_VERSION_HEADER))) {
			return this.errors.error(HttpStatus.BAD_REQUEST, SERVER_ERROR,
					"Bad Request: unsupported MCP-Protocol-Version; supported: "
							+ String.join(", ", this.guard.protocolVersions()));
		}
		return null;
	}

	// Host and Origin: 403
	private @Nullable ServerResponse refusalOfEdge(ServerRequest request) {
		String refusal = this.guard.refusal(request.headers().firstHeader(HttpHeaders.HOST),
				request.headers().firstHeader(HttpHeaders.ORIGIN));
		return (refusal != null) ? this.errors.error(HttpStatus.FORBIDDEN, SERVER_ERROR, refusal) : null;
	}

	/**
	 * Checks the headers of a {@code GET}, which opens the server's stream.
	 * @param request the request
	 * @return the refusal (406), or {@code null} when the request may go on
	 */
	@Nullable ServerResponse refusalOfStream(ServerRequest request) {
		if (!accepts(request, MediaType.TEXT_EVENT_STREAM)) {
			return this.errors.error(HttpStatus.NOT_ACCEPTABLE, SERVER_ERROR,
					"Not Acceptable: the Accept header must list text/event-stream");
		}
		return null;
	}

	/**
	 * Reads the one JSON-RPC message of a {@code POST}: checks its {@code Accept} and
	 * {@code Content-Type}, its size (declared and read), that it is JSON without a
	 * repeated key and that it is a JSON-RPC 2.0 message.
	 * @param request the request
	 * @return the message, or the refusal (406, 415, 413, 400, or 200 with {@code -32602}
	 * for a repeated key)
	 */
	private McpChecked<McpSchema.JSONRPCMessage> read(ServerRequest request) {
		if (!acceptsJsonAndEventStream(request)) {
			return McpChecked.refused(this.errors.error(HttpStatus.NOT_ACCEPTABLE, SERVER_ERROR,
					"Not Acceptable: the Accept header must list application/json and text/event-stream"));
		}
		if (!isJson(request)) {
			return McpChecked.refused(this.errors.error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, SERVER_ERROR,
					"Unsupported Media Type: the Content-Type must be application/json"));
		}
		if (request.servletRequest().getContentLengthLong() > this.maxRequestBytes) {
			return McpChecked.refused(this.errors.tooLarge(this.maxRequestBytes));
		}
		byte[] body;
		try {
			body = readBody(request.servletRequest());
		}
		catch (BodyTooLargeException ex) {
			return McpChecked.refused(this.errors.tooLarge(this.maxRequestBytes));
		}
		catch (IOException ex) {
			logger.debug("MCP client went away while sending a message: {}", ex.getClass().getSimpleName());
			return McpChecked.refused(this.errors.error(HttpStatus.BAD_REQUEST, PARSE_ERROR,
					"Parse error: the message could not be read"));
		}
		return parse(body);
	}

	/**
	 * Checks the params of the methods whose bad params the SDK would answer with a 500
	 * and an exception text.
	 * @param request a request for a session
	 * @return the refusal (200 with {@code -32602}), or {@code null} when the params may
	 * go to the session
	 */
	private @Nullable ServerResponse refusalOfParams(McpSchema.JSONRPCRequest request) {
		String invalid = invalidParams(request);
		return (invalid != null) ? this.errors.error(HttpStatus.OK, request.id(), INVALID_PARAMS, invalid) : null;
	}

	/**
	 * Reads the params of an {@code initialize} request.
	 * @param request the {@code initialize} request
	 * @return its params, or the refusal with {@code -32602} when they lack a protocol
	 * version (200), or a text the client describes itself with is over its limit (400):
	 * {@code protocolVersion} 32 characters (letters, digits, {@code .}, {@code _},
	 * {@code -}), {@code clientInfo.name} and {@code title} 256, {@code version} 64,
	 * {@code description} and {@code websiteUrl} 2048, all the params 16 KiB of JSON
	 */
	private McpChecked<McpSchema.InitializeRequest> initializeRequest(McpSchema.JSONRPCRequest request) {
		McpSchema.InitializeRequest initializeRequest;
		try {
			initializeRequest = this.jsonMapper.convertValue(request.params(), new TypeRef<>() {
			});
		}
		catch (RuntimeException ex) {
			initializeRequest = null;
		}
		if (initializeRequest == null || initializeRequest.protocolVersion() == null) {
			return McpChecked.refused(this.errors.error(HttpStatus.OK, request.id(), INVALID_PARAMS,
					"Invalid params: initialize needs protocolVersion, capabilities and clientInfo"));
		}
		String invalid = invalidClientMetadata(initializeRequest);
		if (invalid == null && paramsLength(request) > MAX_INITIALIZE_PARAMS_LENGTH) {
			invalid = "Invalid params: the params of initialize may have at most " + MAX_INITIALIZE_PARAMS_LENGTH
					+ " characters of JSON";
		}
		if (invalid != null) {
			// 400: a value no session could keep, never the 500 of a column it would not
			// fit
			return McpChecked.refused(this.errors.error(HttpStatus.BAD_REQUEST, request.id(), INVALID_PARAMS, invalid));
		}
		return McpChecked.passed(initializeRequest);
	}

	// A session keeps its initialize params for its whole life (in the database too, with
	// a shared store), and the
	// MCP SDK logs the protocol version it does not know: every text a client describes
	// itself with has a limit
	private static @Nullable String invalidClientMetadata(McpSchema.InitializeRequest request) {
		String protocolVersion = request.protocolVersion();
		if (protocolVersion.length() > MAX_PROTOCOL_VERSION_LENGTH
				|| !PROTOCOL_VERSION.matcher(protocolVersion).matches()) {
			return "Invalid params: initialize protocolVersion must be 1 to " + MAX_PROTOCOL_VERSION_LENGTH
					+ " letters, digits, '.', '_' or '-', such as 2025-06-18";
		}
		McpSchema.Implementation clientInfo = request.clientInfo();
		if (clientInfo == null) {
			return null;
		}
		if (isLonger(clientInfo.name(), MAX_CLIENT_NAME_LENGTH)) {
			return tooLong("clientInfo.name", MAX_CLIENT_NAME_LENGTH);
		}
		if (isLonger(clientInfo.title(), MAX_CLIENT_NAME_LENGTH)) {
			return tooLong("clientInfo.title", MAX_CLIENT_NAME_LENGTH);
		}
		if (isLonger(clientInfo.version(), MAX_CLIENT_VERSION_LENGTH)) {
			return tooLong("clientInfo.version", MAX_CLIENT_VERSION_LENGTH);
		}
		if (isLonger(clientInfo.description(), MAX_CLIENT_TEXT_LENGTH)) {
			return tooLong("clientInfo.description", MAX_CLIENT_TEXT_LENGTH);
		}
		if (isLonger(clientInfo.websiteUrl(), MAX_CLIENT_TEXT_LENGTH)) {
			return tooLong("clientInfo.websiteUrl", MAX_CLIENT_TEXT_LENGTH);
		}
		return null;
	}

	private static boolean isLonger(@Nullable String value, int limit) {
		return value != null && value.length() > limit;
	}

	private static String tooLong(String field, int limit) {
		return "Invalid params: initialize " + field + " may have at most " + limit + " characters";
	}

	private long paramsLength(McpSchema.JSONRPCRequest request) {
		try {
			return this.jsonMapper.writeValueAsString(request.params()).length();
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	private McpChecked<McpSchema.JSONRPCMessage> parse(byte[] body) {
		Object parsed;
		try {
			parsed = STRICT_JSON.readValue(body, Object.class);
		}
		catch (StreamReadException ex) {
			if (isDuplicateKey(ex)) {
				// A repeated key is refused as on every other path (the binder refuses it
				// in a JSON string), rather
				// than silently keeping the last value as a lenient parser would
				logger.warn("MCP message refused: it repeats a key ({} bytes)", body.length);
				return McpChecked.refused(this.errors.error(HttpStatus.OK, idOf(body), INVALID_PARAMS,
						"Invalid params: the message repeats a key; each key may appear only once in an object"));
			}
			return notJson(body);
		}
		catch (RuntimeException ex) {
			return notJson(body);
		}
		if (!(parsed instanceof Map<?, ?> fields)) {
			logger.warn("MCP message refused: not a JSON-RPC message object");
			return McpChecked.refused(this.errors.error(HttpStatus.BAD_REQUEST, INVALID_REQUEST,
					"Invalid Request: expected one JSON-RPC 2.0 message object"));
		}
		McpSchema.JSONRPCMessage message = toMessage(fields);
		if (message == null) {
			logger.warn("MCP message refused: not a valid JSON-RPC 2.0 message");
			return McpChecked.refused(this.errors.error(HttpStatus.BAD_REQUEST, INVALID_REQUEST,
					"Invalid Request: not a JSON-RPC 2.0 message"));
		}
		return McpChecked.passed(message);
	}

	private McpChecked<McpSchema.JSONRPCMessage> notJson(byte[] body) {
		logger.warn("MCP message refused: not valid JSON ({} bytes)", body.length);
		return McpChecked
			.refused(this.errors.error(HttpStatus.BAD_REQUEST, PARSE_ERROR, "Parse error: the body is not valid JSON"));
	}

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

	private byte[] readBody(HttpServletRequest request) throws IOException {
		long declared = request.getContentLengthLong();
		if (declared > this.maxRequestBytes) {
			throw new BodyTooLargeException();
		}
		try (InputStream input = request.getInputStream()) {
			if (declared >= 0) {
				// The container reads no further than Content-Length: one array of that
				// size,
				// instead of readNBytes' 8 KB chunks
				return input.readNBytes((int) declared);
			}
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
			if (method instanceof String) {
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

	private static boolean acceptsJsonAndEventStream(ServerRequest request) {
		List<String> accept = request.headers().asHttpHeaders().get(HttpHeaders.ACCEPT);
		if (accept != null && accept.size() == 1 && JSON_AND_EVENT_STREAM.equals(accept.get(0))) {
			// What clients send: both types, without parsing the header
			return true;
		}
		return accepts(request, MediaType.APPLICATION_JSON) && accepts(request, MediaType.TEXT_EVENT_STREAM);
	}

	private static boolean isJson(ServerRequest request) {
		String contentType = request.headers().asHttpHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
		if (contentType != null && JSON_CONTENT_TYPES.contains(contentType)) {
			// What clients send: JSON, without parsing the header
			return true;
		}
		try {
			return request.headers().contentType().map(MediaType.APPLICATION_JSON::isCompatibleWith).orElse(false);
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private static boolean isDuplicateKey(StreamReadException ex) {
		String message = ex.getOriginalMessage();
		return message != null && message.startsWith("Duplicate Object property");
	}

	// The id of a message refused for a repeated key, read leniently, so that the client
	// can match the error
	private @Nullable Object idOf(byte[] body) {
		try {
			Object lenient = this.jsonMapper.readValue(body, Object.class);
			return (lenient instanceof Map<?, ?> fields) ? fields.get("id") : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The message of a {@code POST} as {@link #check} passed it.
	 *
	 * @param message the JSON-RPC message
	 * @param stateless whether MCP {@code 2026-07-28} serves it
	 * ({@link StatelessMcpServer#serves}): checked up to reading it, the stateless server
	 * checks the rest
	 * @param initialize the params of an {@code initialize} request that passed their
	 * checks, else {@code null}
	 * @param refusalOfParams the refusal of the bad params of an {@code initialize} or
	 * {@code tools/call} request (200 or 400 with {@code -32602}), which applies once the
	 * message reaches its session; {@code null} when the params may go to the session
	 */
	record CheckedMessage(McpSchema.JSONRPCMessage message, boolean stateless,
			McpSchema.@Nullable InitializeRequest initialize, @Nullable ServerResponse refusalOfParams) {

	}

	private static final class BodyTooLargeException extends IOException {

		BodyTooLargeException() {
			super("body too large", null);
		}

	}

}
