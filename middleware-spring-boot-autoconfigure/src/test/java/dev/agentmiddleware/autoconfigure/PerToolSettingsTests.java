package dev.agentmiddleware.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerToolSettingsTests {

	private final Sample defaults = new Sample(Duration.ofMinutes(5), 100);

	@Test
	void aToolWithoutOverrideGetsTheDefaults() {
		assertThat(PerToolSettings.resolve(this.defaults, Map.of(), "get_weather")).isSameAs(this.defaults);
	}

	@Test
	void anOverrideFallsBackToTheDefaultsFieldByField() {
		Map<String, Sample> tools = new LinkedHashMap<>();
		tools.put("get_weather", new Sample(Duration.ofSeconds(30), null));
		Sample resolved = PerToolSettings.resolve(this.defaults, tools, "get_weather");
		assertThat(resolved.ttl).isEqualTo(Duration.ofSeconds(30));
		assertThat(resolved.maxSize).isEqualTo(100);
	}

	@Test
	void toolKeysMatchIgnoringCaseAndSeparatorsSoEnvironmentVariablesWork() {
		Map<String, Sample> tools = Map.of("GET-WEATHER", new Sample(null, 7));
		assertThat(PerToolSettings.resolve(this.defaults, tools, "get_weather").maxSize).isEqualTo(7);
		assertThat(PerToolSettings.isConfigured(tools, "get_weather")).isTrue();
		assertThat(PerToolSettings.isConfigured(tools, "read_file")).isFalse();
	}

	@Test
	void referencesNameTheMapProperty() {
		assertThat(PerToolSettings.references("agent.middleware.cache.tools", Map.of("read-file", this.defaults))
			.toolNames()).containsExactly("read-file");
	}

	static final class Sample implements ToolSettings<Sample> {

		final @Nullable Duration ttl;

		final @Nullable Integer maxSize;

		Sample(@Nullable Duration ttl, @Nullable Integer maxSize) {
			this.ttl = ttl;
			this.maxSize = maxSize;
		}

		@Override
		public Sample withDefaults(Sample defaults) {
			return new Sample((this.ttl != null) ? this.ttl : defaults.ttl,
					(this.maxSize != null) ? this.maxSize : defaults.maxSize);
		}

	}

}
