package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a keep-alive comment on every open stream of every session at an interval, on
 * one daemon thread ({@code mcp-keep-alive}) while the transport runs: the only way to
 * learn that a client went away while its call is still running, since nothing else is
 * written to its stream until the call ends. A stream found broken is
 * {@linkplain McpSseStream#abandon(String) abandoned}. A zero or negative interval sends
 * none. <pre>{@code
 * McpKeepAlive keepAlive = new McpKeepAlive(Duration.ofSeconds(15), registry);
 * keepAlive.start();
 * // ...
 * keepAlive.stop();
 * }</pre>
 */
final class McpKeepAlive {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpSessionRegistry sessions;

	// Pings what else keeps streams open: the calls and the subscriptions of 2026-07-28
	// requests
	private final Runnable alsoPing;

	private final McpTicker ticker;

	McpKeepAlive(Duration interval, McpSessionRegistry sessions) {
		this(interval, sessions, () -> {
		});
	}

	McpKeepAlive(Duration interval, McpSessionRegistry sessions, Runnable alsoPing) {
		this.sessions = sessions;
		this.alsoPing = alsoPing;
		this.ticker = new McpTicker("mcp-keep-alive", interval, this::ping);
	}

	void start() {
		this.ticker.start();
	}

	void stop() {
		this.ticker.stop();
	}

	private void ping() {
		try {
			for (McpLiveSession live : this.sessions.sessions()) {
				for (McpSseStream stream : live.streams()) {
					stream.ping();
				}
			}
			this.alsoPing.run();
		}
		catch (RuntimeException ex) {
			logger.debug("MCP keep-alive failed: {}", ex.getClass().getSimpleName());
		}
	}

}
