package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The MCP SDK's session factory as a server has it, minus the handlers, for the tests of
 * the session registries: each session under a fresh random id, with the client's
 * capabilities and name.
 */
final class McpTestSessions {

	private McpTestSessions() {
	}

	/**
	 * A factory whose sessions answer {@code initialize} with nothing.
	 * @return the factory
	 */
	static McpStreamableServerSession.Factory factory() {
		return factory(null);
	}

	/**
	 * A factory whose sessions answer {@code initialize} with {@code result}.
	 * @param result the answer, or {@code null} for none
	 * @return the factory
	 */
	static McpStreamableServerSession.Factory factory(McpSchema.@Nullable InitializeResult result) {
		return (request) -> new McpStreamableServerSession.McpStreamableServerSessionInit(
				new McpStreamableServerSession(UUID.randomUUID().toString(), request.capabilities(),
						request.clientInfo(), Duration.ofSeconds(10), Map.of(), Map.of()),
				(result != null) ? Mono.just(result) : Mono.empty());
	}

}
