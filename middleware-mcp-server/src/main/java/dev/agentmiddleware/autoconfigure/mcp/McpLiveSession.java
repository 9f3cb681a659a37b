package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.agentmiddleware.chain.CallCancellation;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final String id;

	private final McpStreamableServerSession session;

	private final @Nullable String owner;

	private volatile Instant lastUsed;

	private final Set<McpSseStream> streams = ConcurrentHashMap.newKeySet();

	// The streams of the requests this instance is answering, by request id, for the client's notifications/cancelled
	private final ConcurrentMap<String, McpSseStream> calls = new ConcurrentHashMap<>();

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
		McpSseStream stream = new McpSseStream(sse, this, jsonMapper, new CallCancellation(), null);
		this.streams.add(stream);
		return stream;
	}

	/**
	 * Opens a stream on this session for the response to a request whose call {@code cancellation} cancels.
	 * @param sse the response
	 * @param jsonMapper writes the messages sent on it
	 * @param cancellation cancels the request's call when the stream is abandoned or the request cancelled
	 * @param request the request the stream answers
	 * @return the stream, open until it completes, fails or is closed
	 */
	McpSseStream open(ServerResponse.SseBuilder sse, McpJsonMapper jsonMapper, CallCancellation cancellation,
			McpSchema.JSONRPCRequest request) {
		McpSseStream stream = new McpSseStream(sse, this, jsonMapper, cancellation, request);
		this.streams.add(stream);
		return stream;
	}

	// A request of this session is being answered on this instance, on the stream given
	void callStarted(String requestKey, McpSseStream stream) {
		this.calls.put(requestKey, stream);
	}

	void callEnded(String requestKey, McpSseStream stream) {
		this.calls.remove(requestKey, stream);
	}

	// The stream of a request of this session still being answered on this instance, if any
	@Nullable McpSseStream call(String requestKey) {
		return this.calls.get(requestKey);
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

	// Ends this instance's copy: the SDK's session is deleted (a failure only logged) and its streams completed
	void end() {
		try {
			this.session.delete().block(Duration.ofSeconds(1));
		}
		catch (RuntimeException ex) {
			logger.debug("Closing an MCP session failed: {}", ex.getClass().getSimpleName());
		}
		closeStreams();
	}

	// The server is stopping: each request still unanswered is answered that its call was abandoned, and every
	// stream ends
	void abandonStreamsAtShutdown(String reason) {
		for (McpSseStream stream : streams()) {
			stream.abandonAtShutdown(reason);
		}
	}

}
