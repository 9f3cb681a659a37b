package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
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

	private final Duration interval;

	private final McpSessionRegistry sessions;

	// Pings what else keeps streams open: the calls and the subscriptions of 2026-07-28
	// requests
	private final Runnable alsoPing;

	private volatile @Nullable ScheduledExecutorService scheduler;

	McpKeepAlive(Duration interval, McpSessionRegistry sessions) {
		this(interval, sessions, () -> {
		});
	}

	McpKeepAlive(Duration interval, McpSessionRegistry sessions, Runnable alsoPing) {
		this.interval = interval;
		this.sessions = sessions;
		this.alsoPing = alsoPing;
	}

	void start() {
		if (this.interval.isZero() || this.interval.isNegative()) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "mcp-keep-alive");
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.interval.toMillis());
		scheduler.scheduleWithFixedDelay(this::ping, millis, millis, TimeUnit.MILLISECONDS);
		this.scheduler = scheduler;
	}

	void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
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
