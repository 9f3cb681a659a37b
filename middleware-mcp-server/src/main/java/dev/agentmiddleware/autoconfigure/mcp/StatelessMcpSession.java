package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.tool.ToolInputRequiredException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The MCP SDK's view of one {@code 2026-07-28} request, so that the handlers Spring AI's
 * server is given (tools, resources, prompts, completions) run unchanged on it: the
 * notifications they send go to the request's response stream (a log message only at or
 * above the {@code _meta} {@code io.modelcontextprotocol/logLevel} the request set, none
 * without one). The revision has no request from server to client: multi round-trip
 * requests replace them. On a request that may answer {@code input_required} (its
 * {@link McpInputRound}), a request to the client (elicitation, sampling, roots) the
 * client declared is answered from the client's answers when they hold its key, and
 * otherwise noted for {@code inputRequests} and failed with a
 * {@link ToolInputRequiredException}, which unwinds the handler; an answer that does not
 * fit its request is noted as invalid ({@code -32602}). A request the client did not
 * declare, or on any other request, fails with {@code -32021}. It lives as long as its
 * request: there is no session.
 */
final class StatelessMcpSession implements McpLoggableSession {

	/** The JSON-RPC code of a capability the client did not declare. */
	static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

	private static final TypeRef<LinkedHashMap<String, Object>> PARAMS = new TypeRef<>() {
	};

	private final McpJsonMapper jsonMapper;

	private final @Nullable StatelessMcpStream stream;

	private volatile McpSchema.@Nullable LoggingLevel logLevel;

	private final @Nullable McpInputRound round;

	StatelessMcpSession(McpJsonMapper jsonMapper, @Nullable StatelessMcpStream stream,
			McpSchema.@Nullable LoggingLevel logLevel) {
		this(jsonMapper, stream, logLevel, null);
	}

	StatelessMcpSession(McpJsonMapper jsonMapper, @Nullable StatelessMcpStream stream,
			McpSchema.@Nullable LoggingLevel logLevel, @Nullable McpInputRound round) {
		this.jsonMapper = jsonMapper;
		this.stream = stream;
		this.logLevel = logLevel;
		this.round = round;
	}

	@Override
	public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
		String capability = switch (method) {
			case McpSchema.METHOD_SAMPLING_CREATE_MESSAGE -> "sampling";
			case McpSchema.METHOD_ELICITATION_CREATE -> "elicitation";
			case McpSchema.METHOD_ROOTS_LIST -> "roots";
			default -> method;
		};
		McpInputRound round = this.round;
		if (round == null || !declared(round.capabilities(), capability)) {
			return Mono
				.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(MISSING_REQUIRED_CLIENT_CAPABILITY,
						"Missing required client capability: a 2026-07-28 request cannot ask its client for " + method
								+ ((round == null) ? " (only tools/call, prompts/get and resources/read can)"
										: " (the client did not declare " + capability + ")"),
						Map.of("requiredCapabilities", Map.of(capability, Map.of())))));
		}
		Map<String, Object> params = this.jsonMapper.convertValue(requestParams, PARAMS);
		String key = McpInputRound.takeKey(params);
		if (key == null) {
			key = round.nextKey(capability);
		}
		Object answer = round.answer(key);
		if (answer == null) {
			round.ask(key, method, params);
			return Mono.error(new ToolInputRequiredException(round.name(), capability));
		}
		if (!McpInputRound.fits(method, answer)) {
			round.invalid("Invalid params: the input response " + McpLogText.of(key) + " is not a result of " + method);
			return Mono.error(new ToolInputRequiredException(round.name(), capability));
		}
		try {
			return Mono.just(this.jsonMapper.convertValue(answer, typeRef));
		}
		catch (RuntimeException ex) {
			round.invalid("Invalid params: the input response " + McpLogText.of(key) + " is not a result of " + method);
			return Mono.error(new ToolInputRequiredException(round.name(), capability));
		}
	}

	private static boolean declared(McpSchema.ClientCapabilities capabilities, String capability) {
		return switch (capability) {
			case "sampling" -> capabilities.sampling() != null;
			case "elicitation" -> capabilities.elicitation() != null;
			case "roots" -> capabilities.roots() != null;
			default -> false;
		};
	}

	@Override
	public Mono<Void> sendNotification(String method, Object params) {
		return Mono.fromRunnable(() -> {
			StatelessMcpStream target = this.stream;
			if (target != null) {
				try {
					target.send(this.jsonMapper.writeValueAsString(
							new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, params)));
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}
		});
	}

	@Override
	public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
		this.logLevel = minLoggingLevel;
	}

	@Override
	public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
		McpSchema.LoggingLevel minimum = this.logLevel;
		return minimum != null && loggingLevel.level() >= minimum.level();
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.empty();
	}

	@Override
	public void close() {
	}

}
