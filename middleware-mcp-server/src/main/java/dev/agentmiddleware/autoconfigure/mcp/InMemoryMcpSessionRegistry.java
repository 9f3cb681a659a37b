package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of one server, in memory: idle ones expire on the injected clock (when
 * named and when the cap is reached), and no more than {@code maxSessions} live at once.
 * <pre>{@code
 * McpSessionRegistry registry = new InMemoryMcpSessionRegistry(Duration.ofMinutes(30), 1000, Clock.systemUTC());
 * }</pre>
 */
final class InMemoryMcpSessionRegistry implements McpSessionRegistry {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final Map<String, McpLiveSession> sessions = new ConcurrentHashMap<>();

	private final ReentrantLock creation = new ReentrantLock();

	private final Duration idleTimeout;

	private final int maxSessions;

	private final Clock clock;

	InMemoryMcpSessionRegistry(Duration idleTimeout, int maxSessions, Clock clock) {
		this.idleTimeout = idleTimeout;
		this.maxSessions = maxSessions;
		this.clock = clock;
	}

	@Override
	public McpStreamableServerSession.@Nullable McpStreamableServerSessionInit start(
			McpStreamableServerSession.Factory factory, McpSchema.InitializeRequest request, @Nullable String owner) {
		this.creation.lock();
		try {
			if (this.sessions.size() >= this.maxSessions) {
				expireIdleSessions();
			}
			if (this.sessions.size() >= this.maxSessions) {
				logger.warn("MCP session refused: the limit of {} live sessions is reached", this.maxSessions);
				return null;
			}
			McpStreamableServerSession.McpStreamableServerSessionInit init = factory.startSession(request);
			this.sessions.put(init.session().getId(), new McpLiveSession(init.session(), owner, this.clock.instant()));
			return init;
		}
		finally {
			this.creation.unlock();
		}
	}

	@Override
	public @Nullable McpLiveSession find(String id, @Nullable String principalName) {
		McpLiveSession live = this.sessions.get(id);
		Instant now = this.clock.instant();
		if (live != null && isIdle(live, now)) {
			logger.debug("MCP session expired after {} idle", this.idleTimeout);
			end(id);
			return null;
		}
		if (live != null && !live.belongsTo(principalName)) {
			// Answered exactly as an unknown session: the id of another principal's
			// session is worth nothing
			logger.warn("MCP request refused: it names a session that another principal started");
			return null;
		}
		if (live != null) {
			live.touch(now);
		}
		return live;
	}

	@Override
	public @Nullable McpLiveSession get(String id) {
		return this.sessions.get(id);
	}

	@Override
	public List<McpLiveSession> sessions() {
		return List.copyOf(this.sessions.values());
	}

	@Override
	public void end(String id) {
		McpLiveSession live = this.sessions.remove(id);
		if (live == null) {
			return;
		}
		live.end();
	}

	@Override
	public void endAll() {
		for (String id : List.copyOf(this.sessions.keySet())) {
			end(id);
		}
	}

	@Override
	public int maxSessions() {
		return this.maxSessions;
	}

	@Override
	public int size() {
		return this.sessions.size();
	}

	private void expireIdleSessions() {
		Instant now = this.clock.instant();
		this.sessions.forEach((id, live) -> {
			if (isIdle(live, now)) {
				end(id);
			}
		});
	}

	private boolean isIdle(McpLiveSession live, Instant now) {
		return live.idleSince(now).compareTo(this.idleTimeout) > 0;
	}

}
