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
 * A live session of the transport: its id, the MCP SDK's session (whose own id differs
 * when the session was recreated from a shared store on another instance than the one
 * that started it), the principal that started it (if authenticated), the time it was
 * last used and the streams open on it in this server. <pre>{@code
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

	// Guards opening a stream against ending the session: a stream opened on an ended
	// session would never be pinged
	// nor ended (the registry no longer lists its session), so that a client dropping it
	// left its request active
	private final Object opening = new Object();

	private boolean ended;

	// The protocol version negotiated by initialize on this instance, null for a session
	// recreated from a shared store
	private volatile @Nullable String protocolVersion;

	// The streams of the requests this instance is answering, by request id, for the
	// client's notifications/cancelled
	private final ConcurrentMap<String, McpSseStream> calls = new ConcurrentHashMap<>();

	McpLiveSession(McpStreamableServerSession session, @Nullable String owner, Instant lastUsed) {
		this(session.getId(), session, owner, lastUsed);
	}

	// A session started on another instance and recreated here: the MCP SDK gives its
	// copy an id of its own, the
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

	// A session started anonymously belongs to nobody in particular; one started by a
	// principal only to it
	boolean belongsTo(@Nullable String principalName) {
		return this.owner == null || this.owner.equals(principalName);
	}

	@Nullable String protocolVersion() {
		return this.protocolVersion;
	}

	void protocolVersion(String protocolVersion) {
		this.protocolVersion = protocolVersion;
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
		return add(new McpSseStream(sse, this, jsonMapper, new CallCancellation(), null));
	}

	/**
	 * Opens a stream on this session for the response to a request whose call
	 * {@code cancellation} cancels.
	 * @param sse the response
	 * @param jsonMapper writes the messages sent on it
	 * @param cancellation cancels the request's call when the stream is abandoned or the
	 * request cancelled
	 * @param request the request the stream answers
	 * @return the stream, open until it completes, fails or is closed
	 */
	McpSseStream open(ServerResponse.SseBuilder sse, McpJsonMapper jsonMapper, CallCancellation cancellation,
			McpSchema.JSONRPCRequest request) {
		return add(new McpSseStream(sse, this, jsonMapper, cancellation, request));
	}

	// A stream that arrives once the session ended (a GET or POST that found the session
	// just before a DELETE) is
	// closed at once, so that it cannot outlive its session
	private McpSseStream add(McpSseStream stream) {
		synchronized (this.opening) {
			if (!this.ended) {
				this.streams.add(stream);
				return stream;
			}
		}
		stream.close();
		return stream;
	}

	// Whether this instance's copy was ended: a request that found the session before is
	// refused as not found
	boolean isEnded() {
		synchronized (this.opening) {
			return this.ended;
		}
	}

	// A request of this session is being answered on this instance, on the stream given
	void callStarted(String requestKey, McpSseStream stream) {
		this.calls.put(requestKey, stream);
	}

	void callEnded(String requestKey, McpSseStream stream) {
		this.calls.remove(requestKey, stream);
	}

	// The stream of a request of this session still being answered on this instance, if
	// any
	@Nullable McpSseStream call(String requestKey) {
		return this.calls.get(requestKey);
	}

	/**
	 * Resumes the stream of this session that the event id names on a new connection, the
	 * client's {@code GET} with {@code Last-Event-ID}; only this session's streams on
	 * this instance are searched.
	 * @param sse the new connection
	 * @param lastEventId the id of the last event the client received
	 * @return whether a stream was resumed; {@code false} when none of this session's
	 * open streams has that event
	 */
	boolean resume(ServerResponse.SseBuilder sse, String lastEventId) {
		for (McpSseStream stream : streams()) {
			if (stream.isStreamOf(lastEventId)) {
				return stream.resume(sse, lastEventId);
			}
		}
		return false;
	}

	void ended(McpSseStream stream) {
		this.streams.remove(stream);
	}

	List<McpSseStream> streams() {
		return List.copyOf(this.streams);
	}

	// Whether the client's listening stream is open on this instance: without one, a
	// notification to the session has nowhere to go (its client went away, or never
	// opened one here)
	boolean isListening() {
		for (McpSseStream stream : streams()) {
			if (stream.isListening()) {
				return true;
			}
		}
		return false;
	}

	void closeStreams() {
		for (McpSseStream stream : streams()) {
			stream.close();
		}
	}

	// Ends this instance's copy: the SDK's session is deleted (a failure only logged) and
	// its streams completed
	void end() {
		synchronized (this.opening) {
			this.ended = true;
		}
		try {
			this.session.delete().block(Duration.ofSeconds(1));
		}
		catch (RuntimeException ex) {
			logger.debug("Closing an MCP session failed: {}", ex.getClass().getSimpleName());
		}
		closeStreams();
	}

	// The server is stopping: each request still unanswered is answered that its call was
	// abandoned, and every
	// stream ends
	void abandonStreamsAtShutdown(String reason) {
		for (McpSseStream stream : streams()) {
			stream.abandonAtShutdown(reason);
		}
	}

}
