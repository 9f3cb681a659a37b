package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * A live session of the transport: the MCP SDK's session, the principal that started it (if authenticated), the
 * time it was last used and the streams open on it in this server.
 * <pre>{@code
 * McpLiveSession live = new McpLiveSession(session, "alice", clock.instant());
 * live.belongsTo("alice");   // true
 * live.belongsTo("mallory"); // false: answered as an unknown session
 * }</pre>
 */
final class McpLiveSession {

	private final McpStreamableServerSession session;

	private final @Nullable String owner;

	private volatile Instant lastUsed;

	private final Set<McpSseStream> streams = ConcurrentHashMap.newKeySet();

	McpLiveSession(McpStreamableServerSession session, @Nullable String owner, Instant lastUsed) {
		this.session = session;
		this.owner = owner;
		this.lastUsed = lastUsed;
	}

	McpStreamableServerSession session() {
		return this.session;
	}

	String id() {
		return this.session.getId();
	}

	// A session started anonymously belongs to nobody in particular; one started by a principal only to it
	boolean belongsTo(@Nullable String principalName) {
		return this.owner == null || this.owner.equals(principalName);
	}

	Duration idleSince(Instant now) {
		return Duration.between(this.lastUsed, now);
	}

	void touch(Instant now) {
		this.lastUsed = now;
	}

	/**
	 * Opens a stream on this session for a server-sent-events response.
	 * @param sse the response
	 * @param jsonMapper writes the messages sent on it
	 * @return the stream, open until it completes, fails or is closed
	 */
	McpSseStream open(ServerResponse.SseBuilder sse, McpJsonMapper jsonMapper) {
		McpSseStream stream = new McpSseStream(sse, this, jsonMapper);
		this.streams.add(stream);
		return stream;
	}

	void ended(McpSseStream stream) {
		this.streams.remove(stream);
	}

	List<McpSseStream> streams() {
		return List.copyOf(this.streams);
	}

	void closeStreams() {
		for (McpSseStream stream : streams()) {
			stream.close();
		}
	}

	void abandonStreams() {
		for (McpSseStream stream : streams()) {
			stream.abandon();
		}
	}

}
