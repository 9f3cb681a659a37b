package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Writes the JSON-RPC responses of MCP revision {@code 2026-07-28} for the
 * {@link StatelessMcpServer}: results shaped as the revision wants them (every result
 * {@code resultType: "complete"}, those a client may cache with {@code ttlMs} and
 * {@code cacheScope}) and errors, as a JSON response with its HTTP status or as the JSON
 * of an SSE event.
 */
final class StatelessMcpResponses {

	private static final TypeRef<LinkedHashMap<String, Object>> MAP = new TypeRef<>() {
	};

	private final McpJsonMapper jsonMapper;

	StatelessMcpResponses(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	ServerResponse result(Object id, String method, Object result) {
		return json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(id, shaped(method, result)));
	}

	// Every result says it is complete; those a client may cache say for how long and for
	// whom
	Map<String, Object> shaped(String method, Object result) {
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
			case StatelessMcpServer.METHOD_DISCOVER, McpSchema.METHOD_TOOLS_LIST, McpSchema.METHOD_RESOURCES_LIST,
					McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, McpSchema.METHOD_RESOURCES_READ,
					McpSchema.METHOD_PROMPT_LIST ->
				true;
			default -> false;
		};
	}

	ServerResponse error(HttpStatus status, @Nullable Object id, int code, String message, @Nullable Object data) {
		return json(status, new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, id, null,
				new McpSchema.JSONRPCResponse.JSONRPCError(code, message, data)));
	}

	ServerResponse json(HttpStatus status, McpSchema.JSONRPCResponse response) {
		return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(json(response));
	}

	String json(McpSchema.JSONRPCResponse response) {
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

}
