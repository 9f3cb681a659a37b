package dev.agentmiddleware.sample.weather;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.agentmiddleware.sample.latency.SimulatedLatency;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * A weather tool that stands in for a remote service: it takes about 100 ms, and the same
 * city always gets the same weather (derived from the city's name, ignoring case), so its
 * results can be cached and tested. The same goes for its forecast of the next days,
 * which {@link #weatherChart} returns as a rich result: a line of text and a PNG chart.
 */
@Component
public class WeatherTools {

	/** How long the stand-in service takes to answer. */
	public static final Duration LATENCY = Duration.ofMillis(100);

	/** How many days the simulated forecast covers, today included. */
	public static final int FORECAST_DAYS = 5;

	private static final List<String> CONDITIONS = List.of("sunny", "partly cloudy", "cloudy", "fog", "light rain",
			"heavy rain", "thunderstorms");

	private final SimulatedLatency latency;

	/**
	 * Creates the tool.
	 * @param latency how the service's time passes ({@link SimulatedLatency#REAL} in the
	 * application)
	 */
	public WeatherTools(SimulatedLatency latency) {
		this.latency = latency;
	}

	@AgentTool(title = "Current weather", description = "Current weather for a city: temperature, sky and humidity",
			safety = SafetyLevel.SAFE, readOnly = true, idempotent = true)
	public Weather getWeather(@AgentToolParam(description = "City name, for example Lisbon") String city) {
		if (city.isBlank()) {
			throw new IllegalArgumentException("City must not be blank; give a city name such as Lisbon");
		}
		String name = city.strip();
		simulateLatency();
		return forecast(name, 0);
	}

	@AgentTool(title = "Weather chart",
			description = "A bar chart of the temperatures of the next " + FORECAST_DAYS
					+ " days in a city, as a PNG image with a line of text",
			safety = SafetyLevel.SAFE, readOnly = true, idempotent = true)
	public ToolContents weatherChart(@AgentToolParam(description = "City name, for example Lisbon") String city) {
		if (city.isBlank()) {
			throw new IllegalArgumentException("City must not be blank; give a city name such as Lisbon");
		}
		String name = city.strip();
		simulateLatency();
		List<Weather> days = IntStream.range(0, FORECAST_DAYS).mapToObj((day) -> forecast(name, day)).toList();
		String temperatures = days.stream()
			.map((weather) -> weather.temperatureCelsius() + " °C")
			.collect(Collectors.joining(", "));
		return ToolContents.of(
				ToolContent
					.text("Temperatures in " + name + " for the next " + FORECAST_DAYS + " days: " + temperatures),
				ToolContent.image(WeatherChart.png(days), "image/png"));
	}

	/**
	 * The simulated weather of a city on a day: the same city and day always get the same
	 * weather.
	 * @param city the city, stripped
	 * @param day the day, 0 for today
	 * @return the weather
	 */
	static Weather forecast(String city, int day) {
		String key = city.toLowerCase(Locale.ROOT);
		int hash = mix(((day == 0) ? key : key + "+" + day).hashCode());
		int temperature = Math.floorMod(hash, 46) - 10;
		String condition = CONDITIONS.get(Math.floorMod(hash >>> 8, CONDITIONS.size()));
		if (temperature <= 0 && condition.endsWith("rain")) {
			condition = "snow";
		}
		int humidity = 20 + Math.floorMod(hash >>> 16, 76);
		return new Weather(city, temperature, condition, humidity);
	}

	private void simulateLatency() {
		try {
			this.latency.pass(LATENCY);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while asking for the weather", ex);
		}
	}

	// String.hashCode is specified, so stable across runs; the MurmurHash3 finalizer
	// spreads its bits so that
	// similar names get unrelated weather.
	private static int mix(int hash) {
		hash ^= hash >>> 16;
		hash *= 0x85ebca6b;
		hash ^= hash >>> 13;
		hash *= 0xc2b2ae35;
		hash ^= hash >>> 16;
		return hash;
	}

}
