package dev.agentmiddleware.sample.weather;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.imageio.ImageIO;

import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link WeatherTools}, called directly.
 */
class WeatherToolsTests {

	private final List<Duration> waited = new CopyOnWriteArrayList<>();

	private final WeatherTools tools = new WeatherTools(this.waited::add);

	@Test
	void sameCityGetsTheSameWeather() {
		Weather first = this.tools.getWeather("Lisbon");
		assertThat(this.tools.getWeather("Lisbon")).isEqualTo(first);
		assertThat(new WeatherTools((duration) -> {
		}).getWeather("Lisbon")).isEqualTo(first);
	}

	@Test
	void ignoresCaseAndSurroundingSpace() {
		Weather weather = this.tools.getWeather("Lisbon");
		Weather shouted = this.tools.getWeather("  LISBON ");
		assertThat(shouted.city()).isEqualTo("LISBON");
		assertThat(shouted).usingRecursiveComparison().ignoringFields("city").isEqualTo(weather);
	}

	@Test
	void differentCitiesGetDifferentWeather() {
		List<String> cities = List.of("Lisbon", "Paris", "Tokyo", "Nairobi", "Lima");
		List<List<Object>> readings = cities.stream()
			.map(this.tools::getWeather)
			.map((weather) -> List.<Object>of(weather.temperatureCelsius(), weather.condition(),
					weather.humidityPercent()))
			.toList();
		assertThat(readings).doesNotHaveDuplicates();
	}

	@Test
	void reportsPlausibleWeather() {
		for (String city : List.of("Lisbon", "Paris", "Tokyo", "Oslo", "Reykjavik")) {
			Weather weather = this.tools.getWeather(city);
			assertThat(weather.city()).isEqualTo(city);
			assertThat(weather.temperatureCelsius()).isBetween(-10, 35);
			assertThat(weather.humidityPercent()).isBetween(20, 95);
			assertThat(weather.condition()).isIn("sunny", "partly cloudy", "cloudy", "fog", "light rain", "heavy rain",
					"thunderstorms", "snow");
		}
	}

	@Test
	void refusesBlankCity() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.getWeather(" "))
			.withMessage("City must not be blank; give a city name such as Lisbon");
	}

	@Test
	void takesTheLatencyOfARemoteServiceForEachCall() {
		this.tools.getWeather("Lisbon");
		this.tools.getWeather("Paris");
		assertThat(this.waited).containsExactly(WeatherTools.LATENCY, WeatherTools.LATENCY);
		assertThat(WeatherTools.LATENCY).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void anInterruptedWaitEndsTheCallAndKeepsTheInterrupt() {
		WeatherTools interrupted = new WeatherTools((duration) -> {
			throw new InterruptedException();
		});
		try {
			assertThatIllegalStateException().isThrownBy(() -> interrupted.getWeather("Lisbon"))
				.withMessage("Interrupted while asking for the weather");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void weatherChartIsATextAndAPngOfTheNextFiveDays() throws Exception {
		ToolContents chart = this.tools.weatherChart("Lisbon");
		assertThat(chart.parts()).hasSize(2);
		assertThat(chart.parts().get(0)).isInstanceOfSatisfying(ToolContent.Text.class,
				(text) -> assertThat(text.text()).startsWith("Temperatures in Lisbon for the next 5 days: "
						+ this.tools.getWeather("Lisbon").temperatureCelsius() + " °C, "));
		ToolContent.Image image = (ToolContent.Image) chart.parts().get(1);
		assertThat(image.mimeType()).isEqualTo("image/png");
		BufferedImage png = ImageIO.read(new ByteArrayInputStream(image.data()));
		assertThat(png.getWidth()).isEqualTo(168);
		assertThat(png.getHeight()).isEqualTo(100);
		assertThat(this.tools.weatherChart("lisbon ")).as("the same forecast")
			.satisfies(
					(again) -> assertThat(((ToolContent.Image) again.parts().get(1)).data()).isEqualTo(image.data()));
	}

}
