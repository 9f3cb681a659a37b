package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * The requests the server wrote on one {@link McpSseStream} (a tool's elicitation or
 * sampling, a {@code roots/list}) that its client has not answered yet, so that one the
 * server no longer waits for is withdrawn with a {@code notifications/cancelled} naming
 * its id ({@link McpServerRequests}), and every one is when the call's response is
 * written. Not thread-safe: its stream uses it under the stream's lock.
 */
final class McpSsePendingRequests {

	static final String CANCELLED = "notifications/cancelled";

	private static final Object WITHDRAWN = new Object();

	private static final TypeRef<LinkedHashMap<String, Object>> PARAMS = new TypeRef<>() {
	};

	private static final String CALL_ENDED = "The call that made this request ended before the client answered it";

	private final McpJsonMapper jsonMapper;

	// The server's requests written on this stream and not yet answered (a tool's
	// elicitation or sampling), by their params: the id each went out with, or WITHDRAWN
	// for one withdrawn before it was written; under the lock
	private final Map<Object, Object> serverRequests = new IdentityHashMap<>();

	McpSsePendingRequests(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	// Under the lock, before a server request is written: the request as its client sees
	// it, kept with the id it goes out with; null for one withdrawn before, never written
	McpSchema.@Nullable JSONRPCMessage sending(McpSchema.JSONRPCRequest request) {
		Object key = serverRequestKey(request);
		if (this.serverRequests.remove(key) == WITHDRAWN) {
			return null;
		}
		this.serverRequests.put(key, request.id());
		return withoutInputKey(request);
	}

	// What a server request is kept under: its params, the object the MCP SDK was given,
	// but the method of a roots/list, whose params the SDK builds itself (one at a time
	// per stream is told apart)
	private static Object serverRequestKey(McpSchema.JSONRPCRequest request) {
		return McpSchema.METHOD_ROOTS_LIST.equals(request.method()) ? McpSchema.METHOD_ROOTS_LIST : request.params();
	}

	// The request as its client sees it: without the key that names a tool's question in
	// a 2026-07-28 round (McpInputRound#takeKey), which the same question carries here
	private McpSchema.JSONRPCMessage withoutInputKey(McpSchema.JSONRPCRequest request) {
		if (!(request.params() instanceof McpSchema.Request params) || params.meta() == null
				|| !params.meta().containsKey(McpInputRound.META_KEY)) {
			return request;
		}
		Map<String, Object> shown = this.jsonMapper.convertValue(params, PARAMS);
		McpInputRound.takeKey(shown);
		return new McpSchema.JSONRPCRequest(request.jsonrpc(), request.method(), request.id(), shown);
	}

	// Under the lock, before the call's response: every request not withdrawn yet is,
	// each notification written by the stream
	void withdrawPending(Writer writer) throws IOException {
		for (Map.Entry<Object, Object> request : this.serverRequests.entrySet()) {
			if (request.getValue() != WITHDRAWN) {
				Map<String, Object> cancelled = new LinkedHashMap<>();
				cancelled.put("requestId", request.getValue());
				cancelled.put("reason", CALL_ENDED);
				request.setValue(WITHDRAWN);
				writer.write(this.jsonMapper.writeValueAsString(
						new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, CANCELLED, cancelled)));
			}
		}
	}

	// Under the lock: the id of a request to withdraw, which is forgotten; null for one
	// not written yet (it never will be) or withdrawn already
	@Nullable Object withdraw(Object params) {
		Object id = this.serverRequests.remove(params);
		if (id == null || id == WITHDRAWN) {
			this.serverRequests.put(params, WITHDRAWN);
			return null;
		}
		return id;
	}

	// Under the lock: the client answered a request the server sent on this stream (or it
	// failed)
	void forget(Object params) {
		this.serverRequests.remove(params);
	}

	/**
	 * Writes the JSON of an event on the stream, under its lock.
	 */
	@FunctionalInterface
	interface Writer {

		void write(String data) throws IOException;

	}

}
