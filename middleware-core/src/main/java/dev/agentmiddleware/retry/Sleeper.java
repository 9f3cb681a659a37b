package dev.agentmiddleware.retry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waits between two attempts of a retried call. The default blocks the calling thread; tests pass one that records
 * the backoff instead of sleeping.
 * <pre>{@code
 * List<Duration> waits = new ArrayList<>();
 * RetryMiddleware retry = RetryMiddleware.builder().policies((tool) -> RetryPolicy.defaults()).sleeper(waits::add).build();
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {

	/** Blocks the calling thread for the duration. */
	Sleeper THREAD = (duration) -> TimeUnit.NANOSECONDS.sleep(duration.toNanos());

	/**
	 * Waits.
	 * @param duration how long
	 * @throws InterruptedException if the thread is interrupted while waiting; the call then stops retrying
	 */
	void sleep(Duration duration) throws InterruptedException;

}
