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
 * A live session of the transport: its id, the MCP SDK's session (whose own id differs when the session was
 * recreated from a shared store on another instance than the one that started it), the principal that started it (if authenticated), the
 * time it was last used and the streams open on it in this server.
 * <pre>{@code
 * McpLiveSession live = new McpLiveSession(session, "alice", clock.instant());
 * live.belongsTo("alice");   // true
 * live.belongsTo("mallory"); // false: answered as an unknown session
 * }</pre>
 */
final class McpLiveSession {

	private final String id;

	private final McpStreamableServerSession session;

	private final @Nullable String owner;

	private volatile Instant lastUsed;

	private final Set<McpSseStream> streams = ConcurrentHashMap.newKeySet();

	McpLiveSession(McpStreamableServerSession session, @Nullable String owner, Instant lastUsed) {
		this(session.getId(), session, owner, lastUsed);
	}

	// A session started on another instance and recreated here: the MCP SDK gives its copy an id of its own, the
	// client keeps the id it was given
	McpLiveSession(String id, McpStreamableServerSession session, @Nullable String owner, Instant lastUsed) {
		this.id = id;
		this.session = session;
		this.owner = owner;
		this.lastUsed = lastUsed;
	}

	McpStreamableServerSession session() {
		return this.session;
	}

	// The id the client sends as Mcp-Session-Id, the same on every instance
	String id() {
		return this.id;
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
