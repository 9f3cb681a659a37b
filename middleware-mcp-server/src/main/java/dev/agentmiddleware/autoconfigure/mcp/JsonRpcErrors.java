package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The JSON-RPC answers the transport writes itself: its refusals, each a short JSON-RPC
 * error object with its code and HTTP status that never echoes a header value or the
 * body, and the bound on the texts of errors the MCP SDK built. Immutable. <pre>{@code
 * JsonRpcErrors errors = new JsonRpcErrors(jsonMapper);
 * errors.error(HttpStatus.BAD_REQUEST, HardenedStreamableHttpTransport.PARSE_ERROR, "Parse error: ...");
 * // 400 {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: ..."}}
 * }</pre>
 */
final class JsonRpcErrors {

	// The longest text of a JSON-RPC error sent as the SDK built it: room for a tool name
	// of 128 characters
	private static final int MAX_ERROR_TEXT = 160;

	private final McpJsonMapper jsonMapper;

	JsonRpcErrors(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * A JSON-RPC error without a request id (the request could not be read or was refused
	 * before its id mattered).
	 * @param status the HTTP status
	 * @param code the JSON-RPC error code
	 * @param message the text for the client, which names no input
	 * @return the response
	 */
	ServerResponse error(HttpStatus status, int code, String message) {
		return error(status, null, code, message);
	}

	/**
	 * A JSON-RPC error answering the request with the given id.
	 * @param status the HTTP status
	 * @param id the id of the request, or {@code null}
	 * @param code the JSON-RPC error code
	 * @param message the text for the client, which names no input
	 * @return the response
	 */
	ServerResponse error(HttpStatus status, @Nullable Object id, int code, String message) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", code);
		error.put("message", message);
		Map<String, @Nullable Object> body = new LinkedHashMap<>();
		body.put("jsonrpc", McpSchema.JSONRPC_VERSION);
		body.put("id", id);
		body.put("error", error);
		return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(json(body));
	}

	/**
	 * The refusal of a message over the size limit (413).
	 * @param maxRequestBytes the limit
	 * @return the response
	 */
	ServerResponse tooLarge(long maxRequestBytes) {
		return error(HttpStatus.CONTENT_TOO_LARGE, HardenedStreamableHttpTransport.SERVER_ERROR,
				"Content Too Large: a message may have at most " + maxRequestBytes + " bytes");
	}

	/**
	 * The refusal of any request while the server shuts down (503).
	 * @return the response
	 */
	ServerResponse unavailable() {
		return error(HttpStatus.SERVICE_UNAVAILABLE, HardenedStreamableHttpTransport.SERVER_ERROR,
				"Service Unavailable: the server is shutting down");
	}

	/**
	 * The answer to a request still unanswered when the server stops, so that its client
	 * does not wait out its own timeout: for {@code tools/call} a result with
	 * {@code isError} (as for any other failed call, so that the model reads it) saying
	 * the call was abandoned and whether the tool started; for any other request a
	 * {@code -32000} error.
	 * @param request the request
	 * @param toolStarted whether the call's tool had started when the call was cancelled
	 * @return the response
	 */
	static McpSchema.JSONRPCResponse abandonedAtShutdown(McpSchema.JSONRPCRequest request, boolean toolStarted) {
		if (!McpSchema.METHOD_TOOLS_CALL.equals(request.method())) {
			return new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
					new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.SERVER_ERROR,
							"Service Unavailable: the request was abandoned because the server is stopping", null));
		}
		String text = toolStarted
				? "The call was abandoned because the server is stopping. The tool had started and may have run, "
						+ "in part or in full: check its effect before calling it again."
				: "The call was abandoned because the server is stopping. The tool was not started, so nothing "
						+ "was done: call it again once the server is back.";
		McpSchema.CallToolResult result = McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
		return new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null);
	}

	/**
	 * Writes a JSON-RPC message or error body as JSON, with the transport's mapper.
	 * @param value the message
	 * @return its JSON text
	 */
	String json(Object value) {
		try {
			return this.jsonMapper.writeValueAsString(value);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Cuts the texts of a JSON-RPC error the SDK built, which may quote the request (such
	 * as "Tool not found: " and the name sent), so that an error never echoes unbounded
	 * input; any other message is returned as it is.
	 * @param message a message on its way to the client
	 * @return the message, its error texts at most 160 characters
	 */
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

}
