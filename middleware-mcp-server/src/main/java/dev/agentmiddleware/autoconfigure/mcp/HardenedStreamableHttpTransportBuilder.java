package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.tool.CallResumption;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link HardenedStreamableHttpTransport}:
 * {@code HardenedStreamableHttpTransport.builder(jsonMapper)}.
 */
public final class HardenedStreamableHttpTransportBuilder {

	final McpJsonMapper jsonMapper;

	String endpoint = "/mcp";

	List<String> allowedOrigins = McpRequestGuard.LOCAL_ORIGINS;

	List<String> allowedHosts = McpRequestGuard.LOCAL_HOSTS;

	long maxRequestBytes = 4L * 1024 * 1024;

	Duration sessionIdleTimeout = Duration.ofMinutes(30);

	int maxSessions = 1000;

	Clock clock = Clock.systemUTC();

	McpToolVisibility toolVisibility = McpToolVisibility.ALL;

	@Nullable DataSource sessionStore;

	Duration keepAliveInterval = HardenedStreamableHttpTransport.DEFAULT_KEEP_ALIVE_INTERVAL;

	Duration sseRetry = HardenedStreamableHttpTransport.DEFAULT_SSE_RETRY;

	Duration primingHold = McpHeldPrimings.DEFAULT_HOLD;

	Supplier<StatelessMcpCatalog> catalog = () -> StatelessMcpCatalog.EMPTY;

	@Nullable DataSource taskStore;

	Function<String, TaskSupport> taskSupport = (tool) -> TaskSupport.FORBIDDEN;

	Duration taskTtl = Duration.ofHours(1);

	Duration taskPollInterval = Duration.ofSeconds(1);

	Supplier<McpSchema.@Nullable ServerCapabilities> notifiedCapabilities = () -> null;

	byte @Nullable [] requestStateKey;

	Duration requestStateValidity = Duration.ofMinutes(10);

	Duration approvalRound = CallResumption.DEFAULT_ROUND_TIME;

	HardenedStreamableHttpTransportBuilder(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Sets the endpoint path (default {@code /mcp}).
	 * @param endpoint the path
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder endpoint(String endpoint) {
		this.endpoint = endpoint;
		return this;
	}

	/**
	 * Sets the origins a browser page may call from (default: localhost origins).
	 * @param allowedOrigins the origin patterns
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder allowedOrigins(List<String> allowedOrigins) {
		this.allowedOrigins = List.copyOf(allowedOrigins);
		return this;
	}

	/**
	 * Sets the host names the server answers to (default: loopback names).
	 * @param allowedHosts the host names or addresses, {@code *} for any
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder allowedHosts(List<String> allowedHosts) {
		this.allowedHosts = List.copyOf(allowedHosts);
		return this;
	}

	/**
	 * Sets the largest message accepted (default 4 MB).
	 * @param maxRequestBytes the limit in bytes
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder maxRequestBytes(long maxRequestBytes) {
		this.maxRequestBytes = maxRequestBytes;
		return this;
	}

	/**
	 * Sets how long an unused session lives (default 30 minutes).
	 * @param sessionIdleTimeout the idle timeout
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder sessionIdleTimeout(Duration sessionIdleTimeout) {
		this.sessionIdleTimeout = sessionIdleTimeout;
		return this;
	}

	/**
	 * Sets the number of live sessions at most (default 1000).
	 * @param maxSessions the limit
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder maxSessions(int maxSessions) {
		this.maxSessions = maxSessions;
		return this;
	}

	/**
	 * Keeps the sessions in a database that every instance of the server shares (table
	 * {@code agent_mcp_session}, created when missing), so that a session started on one
	 * instance is accepted by all of them, and the idle timeout and the session limit
	 * hold for all of them together (default: in this server's memory). <pre>{@code
	 * HardenedStreamableHttpTransport.builder(jsonMapper).sessionStore(dataSource).build();
	 * }</pre>
	 * @param dataSource the shared database (PostgreSQL; H2 for instances on one machine)
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder sessionStore(DataSource dataSource) {
		this.sessionStore = dataSource;
		return this;
	}

	/**
	 * Sets the clock that session expiry reads.
	 * @param clock the clock
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder clock(Clock clock) {
		this.clock = clock;
		return this;
	}

	/**
	 * Sets the key that seals the {@code requestState} of MCP {@code 2026-07-28}
	 * {@code input_required} answers (HMAC-SHA256), the same on every instance that
	 * serves the same clients (default: a random key per start, good on this instance
	 * only).
	 * @param key the key, at least 32 bytes
	 * @return this builder
	 * @throws IllegalArgumentException if the key is shorter than 32 bytes
	 */
	public HardenedStreamableHttpTransportBuilder requestStateKey(byte[] key) {
		if (key.length < McpRequestStates.MIN_KEY_BYTES) {
			throw new IllegalArgumentException("The requestState key must have at least "
					+ McpRequestStates.MIN_KEY_BYTES + " bytes, has " + key.length);
		}
		this.requestStateKey = key.clone();
		return this;
	}

	/**
	 * Sets how long a {@code requestState} stays valid (default 10 minutes).
	 * @param validity a positive duration
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder requestStateValidity(Duration validity) {
		this.requestStateValidity = validity;
		return this;
	}

	/**
	 * Sets how long one round of an MCP {@code 2026-07-28} {@code tools/call} waits for
	 * an approval decided outside the call (console, REST, link) before it answers
	 * {@code input_required} with only its {@code requestState}, so that the client
	 * retries and the retry waits again (default 20 seconds). Keep it below the clients'
	 * request timeout (60 seconds in the official SDKs).
	 * @param approvalRound a positive duration
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder approvalRound(Duration approvalRound) {
		if (approvalRound.isNegative() || approvalRound.isZero()) {
			throw new IllegalArgumentException("approvalRound must be positive, was " + approvalRound);
		}
		this.approvalRound = approvalRound;
		return this;
	}

	/**
	 * Sets which tools a caller sees in its {@code tools/list} (default: all).
	 * @param toolVisibility decides per tool and caller
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder toolVisibility(McpToolVisibility toolVisibility) {
		this.toolVisibility = toolVisibility;
		return this;
	}

	/**
	 * Sets how often every open stream gets a keep-alive comment (default 15 seconds),
	 * which is how the server learns that a client went away while its call was still
	 * running: the stream and the call then end. {@link Duration#ZERO} sends none.
	 * @param keepAliveInterval the interval
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder keepAliveInterval(Duration keepAliveInterval) {
		this.keepAliveInterval = keepAliveInterval;
		return this;
	}

	/**
	 * Sets the {@code retry:} field of the priming event that starts every
	 * server-sent-events stream of a session on protocol {@code 2025-11-25} or later
	 * (default 1 second): how long a client whose connection broke waits before it
	 * reconnects with {@code Last-Event-ID} to resume the stream (SEP-1699).
	 * {@link Duration#ZERO} sends no priming event.
	 * @param sseRetry the reconnection delay
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder sseRetry(Duration sseRetry) {
		this.sseRetry = sseRetry;
		return this;
	}

	/**
	 * Sets how long the stream of a request may hold its priming event back for its first
	 * message (default 50 ms): a call answered within it sends the priming event and its
	 * answer in one write, a longer one gets the priming event sent alone once the hold
	 * has passed (at most twice the hold after the request arrived), so that its client
	 * can resume it. The client reads the same events either way. The specification says
	 * a server should send the priming event immediately; {@link Duration#ZERO} does, at
	 * the cost of one more write per request. A session's listening stream ({@code GET})
	 * always sends it at once.
	 * @param primingHold the longest hold
	 * @return this builder
	 */
	public HardenedStreamableHttpTransportBuilder primingHold(Duration primingHold) {
		this.primingHold = primingHold;
		return this;
	}

	/**
	 * Builds the transport.
	 * @return the transport
	 */
	// What a 2026-07-28 request is served from (the auto-configuration's: the
	// specifications Spring AI's MCP server is given), read on the first such request
	HardenedStreamableHttpTransportBuilder catalog(Supplier<StatelessMcpCatalog> catalog) {
		this.catalog = catalog;
		return this;
	}

	// The tasks of MCP 2026-07-28's tasks extension: which tools support them, how long
	// they are kept, the poll interval clients are told, and the database every instance
	// shares for them (null: in memory)
	HardenedStreamableHttpTransportBuilder tasks(Function<String, TaskSupport> taskSupport, Duration ttl,
			Duration pollInterval, @Nullable DataSource store) {
		this.taskSupport = taskSupport;
		this.taskTtl = ttl;
		this.taskPollInterval = pollInterval;
		this.taskStore = store;
		return this;
	}

	// The capabilities Spring AI's MCP server advertises to sessions: the list changes
	// and resource updates it notifies, which 2026-07-28 subscriptions get too
	HardenedStreamableHttpTransportBuilder notifiedCapabilities(
			Supplier<McpSchema.@Nullable ServerCapabilities> notifiedCapabilities) {
		this.notifiedCapabilities = notifiedCapabilities;
		return this;
	}

	public HardenedStreamableHttpTransport build() {
		return new HardenedStreamableHttpTransport(this);
	}

}
