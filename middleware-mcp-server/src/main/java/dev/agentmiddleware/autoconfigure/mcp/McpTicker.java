package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Runs a task of the transport at a fixed delay, on one daemon thread of its own, from
 * {@link #start()} to {@link #stop()}; a zero or negative interval runs it never. Shared
 * by the keep-alive comments ({@link McpKeepAlive}) and the held priming events
 * ({@link McpHeldPrimings}). <pre>{@code
 * McpTicker ticker = new McpTicker("mcp-keep-alive", Duration.ofSeconds(15), this::ping);
 * ticker.start();
 * // ...
 * ticker.stop();
 * }</pre>
 */
final class McpTicker {

	private final String threadName;

	private final Duration interval;

	private final Runnable task;

	private volatile @Nullable ScheduledExecutorService scheduler;

	/**
	 * A ticker, not started.
	 * @param threadName the name of its thread
	 * @param interval the delay between the end of one run and the start of the next, and
	 * before the first; zero or negative for none
	 * @param task what it runs; an exception it throws stops the runs that follow
	 */
	McpTicker(String threadName, Duration interval, Runnable task) {
		this.threadName = threadName;
		this.interval = interval;
		this.task = task;
	}

	void start() {
		if (this.interval.isZero() || this.interval.isNegative()) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, this.threadName);
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.interval.toMillis());
		scheduler.scheduleWithFixedDelay(this.task, millis, millis, TimeUnit.MILLISECONDS);
		this.scheduler = scheduler;
	}

	void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	/**
	 * Whether it runs its task: started with a positive interval, not stopped.
	 * @return whether it is running
	 */
	boolean isRunning() {
		return this.scheduler != null;
	}

}
