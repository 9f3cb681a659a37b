package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import reactor.core.publisher.Mono;

/**
 * The client end of an MCP exchange, scripted: the MCP SDK's real server exchange sends
 * its requests through this session, which records them and answers with the script. Also
 * records what the transport sends to a session ({@link #transport()}).
 */
public final class ScriptedMcpClient implements McpLoggableSession {

	private final Function<Object, Mono<?>> answers;

	private final List<Object> requests = new CopyOnWriteArrayList<>();

	private final List<String> notified = new CopyOnWriteArrayList<>();

	public ScriptedMcpClient(Function<Object, Mono<?>> answers) {
		this.answers = answers;
	}

	/** A client that answers every elicitation with the action. */
	public static ScriptedMcpClient answering(McpSchema.ElicitResult.Action action) {
		return new ScriptedMcpClient((request) -> Mono.just(new McpSchema.ElicitResult(action, null)));
	}

	/**
	 * The exchange of a call from this client, declaring the capabilities, as the
	 * transport describes it.
	 */
	public McpSyncServerExchange exchange(McpSchema.ClientCapabilities capabilities,
			Map<String, Object> transportContext) {
		return exchange("inspector", capabilities, transportContext);
	}

	/** The exchange of a call from this client, which names itself. */
	public McpSyncServerExchange exchange(String clientName, McpSchema.ClientCapabilities capabilities,
			Map<String, Object> transportContext) {
		return new McpSyncServerExchange(new McpAsyncServerExchange("sdk-session", this, capabilities,
				new McpSchema.Implementation(clientName, "1.0.0"), McpTransportContext.create(transportContext)));
	}

	/**
	 * The transport context of a request that reached the application under the base URL,
	 * as the transport describes it.
	 */
	public static Map<String, Object> reachedUnder(String baseUrl) {
		Map<String, Object> context = new HashMap<>();
		McpRequestContext.KEY.put(context, new McpRequestContext(null, null, baseUrl, null, null, null, false, null));
		return context;
	}

	public static McpSchema.ClientCapabilities urlElicitation() {
		return McpSchema.ClientCapabilities.builder()
			.elicitation(McpSchema.ClientCapabilities.Elicitation.builder()
				.url(new McpSchema.ClientCapabilities.Elicitation.Url())
				.build())
			.build();
	}

	public List<Object> requests() {
		return this.requests;
	}

	/** What the transport sent to sessions: "sessionId method elicitationId". */
	public List<String> notified() {
		return this.notified;
	}

	public McpServerTransportProviderBase transport() {
		return new McpServerTransportProviderBase() {
			@Override
			public Mono<Void> notifyClients(String method, Object params) {
				return Mono.error(new UnsupportedOperationException("broadcast"));
			}

			@Override
			public Mono<Void> notifyClient(String sessionId, String method, Object params) {
				return Mono.fromRunnable(() -> ScriptedMcpClient.this.notified.add(sessionId + " " + method + " "
						+ ((McpSchema.ElicitationCompleteNotification) params).elicitationId()));
			}

			@Override
			public Mono<Void> closeGracefully() {
				return Mono.empty();
			}
		};
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
		this.requests.add(requestParams);
		return (Mono<T>) this.answers.apply(requestParams);
	}

	@Override
	public Mono<Void> sendNotification(String method, Object params) {
		return Mono.empty();
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.empty();
	}

	@Override
	public void close() {
	}

	@Override
	public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
	}

	@Override
	public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
		return true;
	}

}
