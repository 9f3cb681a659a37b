package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

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
 * without one), and a request to the client, which the revision does not have (multi
 * round-trip requests, {@code input_required}, replace them; not served yet), fails with
 * {@code -32021}. It lives as long as its request: there is no session.
 */
final class StatelessMcpSession implements McpLoggableSession {

	/** The JSON-RPC code of a capability the client did not declare. */
	static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

	private final McpJsonMapper jsonMapper;

	private final @Nullable StatelessMcpStream stream;

	private volatile McpSchema.@Nullable LoggingLevel logLevel;

	StatelessMcpSession(McpJsonMapper jsonMapper, @Nullable StatelessMcpStream stream,
			McpSchema.@Nullable LoggingLevel logLevel) {
		this.jsonMapper = jsonMapper;
		this.stream = stream;
		this.logLevel = logLevel;
	}

	@Override
	public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
		String capability = switch (method) {
			case McpSchema.METHOD_SAMPLING_CREATE_MESSAGE -> "sampling";
			case McpSchema.METHOD_ELICITATION_CREATE -> "elicitation";
			case McpSchema.METHOD_ROOTS_LIST -> "roots";
			default -> method;
		};
		return Mono.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(MISSING_REQUIRED_CLIENT_CAPABILITY,
				"Missing required client capability: a 2026-07-28 request cannot be asked " + method
						+ " on its stream (input_required is not served yet)",
				Map.of("requiredCapabilities", Map.of(capability, Map.of())))));
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
