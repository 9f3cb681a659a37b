package dev.agentmiddleware.sample.latency;

import java.time.Duration;

/**
 * How the sample's stand-ins for remote services spend the time a real service would
 * take. The application waits for real ({@link #REAL}, the bean
 * {@link SimulatedLatencyConfiguration} declares); a test of a tool passes one that
 * records what it was asked to wait, so that no test measures the time that passed:
 * <pre>{@code
 * List<Duration> waited = new ArrayList<>();
 * WeatherTools tools = new WeatherTools(waited::add);
 * tools.getWeather("Lisbon");
 * assertThat(waited).containsExactly(Duration.ofMillis(100));
 * }</pre>
 */
@FunctionalInterface
public interface SimulatedLatency {

	/** Waits for real, on the calling thread; an interrupt ends the wait. */
	SimulatedLatency REAL = (duration) -> Thread.sleep(duration.toMillis());

	/**
	 * Lets the time a remote service would take pass.
	 * @param duration how long the service would take
	 * @throws InterruptedException when the thread is interrupted while it waits (a call
	 * cancelled or timed out)
	 */
	void pass(Duration duration) throws InterruptedException;

}
