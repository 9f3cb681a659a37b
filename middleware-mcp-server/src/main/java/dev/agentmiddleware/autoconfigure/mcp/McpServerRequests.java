package dev.agentmiddleware.autoconfigure.mcp;

/**
 * The requests the server sends its client on the response stream of one of the client's
 * requests (a tool's {@code elicitation/create}, {@code sampling/createMessage} and
 * {@code roots/list}), so that one the server no longer waits for is withdrawn with a
 * {@code notifications/cancelled} naming its id, as the MCP specification lets the sender
 * of a request do. The MCP Java SDK numbers these requests itself and offers no way to
 * cancel one; the stream sees each go out with its id, and the request's params, which
 * the SDK sends as the object it was given, tie that id to the caller's request. The
 * transport builds one with the stream, in the {@link McpRequestContext} of every request
 * of a session it answers on a stream: <pre>{@code
 * McpServerRequests requests = McpRequestContext.of(exchange.transportContext()).serverRequests();
 * ElicitResult answer = exchange.createElicitation(question); // interrupted: the call was cancelled
 * requests.withdraw(question, "the call was cancelled");      // notifications/cancelled of its id
 * }</pre>
 */
final class McpServerRequests {

	// The stream of the client's request
	private final McpSseStream stream;

	McpServerRequests(McpSseStream stream) {
		this.stream = stream;
	}

	/**
	 * Withdraws a request the server sent, or was about to send, and no longer waits for:
	 * the client gets a {@code notifications/cancelled} naming it (with the reason); a
	 * request not sent yet is never sent.
	 * @param params the params of the request, the object given to the MCP SDK
	 * ({@link io.modelcontextprotocol.spec.McpSchema#METHOD_ROOTS_LIST} for a
	 * {@code roots/list}, whose params the SDK builds itself)
	 * @param reason why, for the client
	 * @return whether a notification was sent
	 */
	boolean withdraw(Object params, String reason) {
		return this.stream.withdraw(params, reason);
	}

	/**
	 * Forgets a request the client answered (or that failed).
	 * @param params the params of the request, the object given to the MCP SDK
	 */
	void answered(Object params) {
		this.stream.forget(params);
	}

}
