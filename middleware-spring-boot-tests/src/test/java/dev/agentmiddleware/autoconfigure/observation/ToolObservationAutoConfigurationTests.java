package dev.agentmiddleware.autoconfigure.observation;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.observation.AgentToolObservationConvention;
import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;
import dev.agentmiddleware.observation.MicrometerMiddlewareMetrics;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.observation.ObservationMiddleware.ToolCallMeterObservationHandler;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class ToolObservationAutoConfigurationTests {

	private static final Class<?>[] BOOT_METRICS = {
			org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration.class,
			org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration.class,
			org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration.class };

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolObservationAutoConfiguration.class,
				org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration.class))
		.withUserConfiguration(WeatherConfiguration.class);

	@Test
	void observationIsTheOutermostLayerOfEveryToolWhenTheRegistryObserves() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ObservationMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("get_weather").pipeline().layers()).containsExactly("observation", "get_weather");
			assertThat(registry.get("set_alarm").pipeline().layers()).containsExactly("observation", "set_alarm");
		});
	}

	@Test
	void aRegistryWithoutHandlersLeavesThePipelinesUntouched() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ObservationMiddleware.class).hasSingleBean(ObservationRegistry.class);
			assertThat(context.getBean(AgentToolRegistry.class).get("get_weather").pipeline().layers())
				.containsExactly("get_weather");
		});
	}

	@Test
	void withoutAnObservationRegistryThePipelinesAreUntouched() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
					AgentToolAutoConfiguration.class, ToolObservationAutoConfiguration.class))
			.withUserConfiguration(WeatherConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(ObservationMiddleware.class)
					.doesNotHaveBean(ObservationRegistry.class);
				assertThat(context.getBean(AgentToolRegistry.class).get("get_weather").pipeline().layers())
					.containsExactly("get_weather");
			});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class)
			.withPropertyValues("agent.middleware.observation.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ObservationMiddleware.class);
				assertThat(context.getBean(AgentToolRegistry.class).get("get_weather").pipeline().layers())
					.containsExactly("get_weather");
			});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class)
			.withBean("customObservation", ObservationMiddleware.class,
					() -> ObservationMiddleware.builder().registry(ObservationRegistry.NOOP).build())
			.run((context) -> assertThat(context).hasSingleBean(ObservationMiddleware.class)
				.hasBean("customObservation"));
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ObservationMiddleware.class));
	}

	@Test
	void perToolOverridesMergeWithTheDefaults() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class)
			.withPropertyValues("agent.middleware.observation.defaults.enabled=false",
					"agent.middleware.observation.tools.get-weather.enabled=true")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("get_weather").pipeline().layers()).containsExactly("observation",
						"get_weather");
				assertThat(registry.get("set_alarm").pipeline().layers()).containsExactly("set_alarm");
			});
	}

	@Test
	void aToolOverrideWithoutEnabledKeepsTheDefault() {
		ToolObservationProperties properties = new ToolObservationProperties();
		assertThat(new ToolObservationProperties.Settings().withDefaults(properties.getDefaults()).getEnabled())
			.isNull();
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingIt() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class)
			.withPropertyValues("agent.middleware.observation.tools.get-wether.enabled=false")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.observation.tools.get-wether");
			});
	}

	@Test
	void theOrderCanBeChangedInProperties() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class, PolicyConfiguration.class)
			.run((context) -> assertThat(
					context.getBean(AgentToolRegistry.class).get("get_weather").pipeline().layers())
				.containsExactly("policy", "observation", "get_weather"));
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class, PolicyConfiguration.class)
			.withPropertyValues("agent.middleware.observation.order=10")
			.run((context) -> assertThat(
					context.getBean(AgentToolRegistry.class).get("get_weather").pipeline().layers())
				.containsExactly("observation", "policy", "get_weather"));
	}

	@Test
	void aCallThroughTheToolCallbackIsObservedWithItsOutcomeAndSession() {
		this.contextRunner.withUserConfiguration(TestRegistryConfiguration.class).run((context) -> {
			ToolCallback weather = callback(context, "get_weather");
			assertThat(weather.call("{\"city\":\"Porto\"}",
					new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1"))))
				.isEqualTo("Sunny in Porto");
			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasSingleObservationThat()
				.hasNameEqualTo("agent.tool.call")
				.hasLowCardinalityKeyValue("agent.tool.name", "get_weather")
				.hasLowCardinalityKeyValue("agent.tool.outcome", "succeeded")
				.hasLowCardinalityKeyValue("agent.tool.source", "spring_ai")
				.hasHighCardinalityKeyValue("agent.session.id", SessionFingerprint.of("s1"));
		});
	}

	@Test
	void bootsObservationRegistryWithAMeterHandlerProducesTheTimerTaggedWithTheOutcome() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class).run((context) -> {
			ToolCallback weather = callback(context, "get_weather");
			weather.call("{\"city\":\"Porto\"}", new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
			weather.call("{\"city\":\"Atlantis\"}", new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("agent.tool.call")
				.tag("agent.tool.name", "get_weather")
				.tag("agent.tool.outcome", "succeeded")
				.timer()
				.count()).isEqualTo(1);
			assertThat(meters.get("agent.tool.call")
				.tag("agent.tool.outcome", "failed")
				.tag("error", "IllegalStateException")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void withBootsMeterHandlerToolCallsGetATimerWithoutALongTaskTimerAndOtherObservationsKeepTheirs() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BOOT_METRICS)).run((context) -> {
			assertThat(context).hasSingleBean(ToolCallMeterObservationHandler.class);
			callback(context, "get_weather").call("{\"city\":\"Porto\"}");
			Observation.start("other.work", context.getBean(ObservationRegistry.class)).stop();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("agent.tool.call").tag("agent.tool.outcome", "succeeded").timer().count()).isOne();
			assertThat(meters.find("agent.tool.call.active").longTaskTimer()).isNull();
			assertThat(meters.get("other.work").timer().count()).isOne();
			assertThat(meters.find("other.work.active").longTaskTimer()).isNotNull();
		});
	}

	@Test
	void theLongTaskTimerOfToolCallsCanBeTurnedOn() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BOOT_METRICS))
			.withPropertyValues("agent.middleware.observation.long-task-timer=true")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ToolCallMeterObservationHandler.class);
				callback(context, "get_weather").call("{\"city\":\"Porto\"}");
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("agent.tool.call").timer().count()).isOne();
				assertThat(meters.get("agent.tool.call.active").longTaskTimer().activeTasks()).isZero();
			});
	}

	@Test
	void withAMeterRegistryACallTheToolDidNotRunIsATimerAndNoObservation() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BOOT_METRICS))
			.withUserConfiguration(TestRegistryConfiguration.class)
			.withBean(ToolMiddleware.class,
					() -> ToolMiddleware.named("canned",
							(tool, next) -> (invocation) -> tool.name().equals("get_weather") ? "Always sunny"
									: next.handle(invocation)))
			.run((context) -> {
				assertThat(callback(context, "get_weather").call("{\"city\":\"Porto\"}")).contains("Always sunny");
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.doesNotHaveAnyObservation();
				assertThat(context.getBean(MeterRegistry.class)
					.get("agent.tool.call")
					.tag("agent.tool.outcome", "short_circuited")
					.timer()
					.count()).isOne();
			});
	}

	@Test
	void aConventionBeanChangesTheName() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class)
			.withBean(AgentToolObservationConvention.class, () -> new DefaultAgentToolObservationConvention("ai.tools"))
			.run((context) -> {
				callback(context, "get_weather").call("{\"city\":\"Porto\"}");
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("ai.tools").tag("agent.tool.outcome", "succeeded").timer().count()).isEqualTo(1);
				assertThat(meters.find("agent.tool.call").timer()).isNull();
			});
	}

	@Test
	void aMeterRegistryBacksTheMiddlewareMetrics() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(MiddlewareMetrics.class);
			MiddlewareMetrics metrics = context.getBean(MiddlewareMetrics.class);
			assertThat(metrics).isInstanceOf(MicrometerMiddlewareMetrics.class);
			metrics.count(MiddlewareEvent.CACHE_HIT, "get_weather");
			assertThat(context.getBean(MeterRegistry.class)
				.get("agent.tool.cache.hits")
				.tag("agent.tool.name", "get_weather")
				.counter()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void noMiddlewareMetricsWithoutAMeterRegistry() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(MiddlewareMetrics.class)
			.doesNotHaveBean(MeterBinder.class));
	}

	@Test
	void middlewareMetricsBackOffWhenTheUserDefinesThem() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class)
			.withBean("customMetrics", MiddlewareMetrics.class, () -> MiddlewareMetrics.NONE)
			.run((context) -> assertThat(context).hasSingleBean(MiddlewareMetrics.class).hasBean("customMetrics"));
	}

	@Test
	void observerDropsAreACounter() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class).run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean("toolCallObserverDropsMeterBinder", MeterBinder.class).bindTo(meters);
			assertThat(meters.get("agent.tool.observer.drops").functionCounter().count()).isZero();
		});
	}

	private static ToolCallback callback(org.springframework.context.ApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	@Configuration(proxyBeanMethods = false)
	static class WeatherConfiguration {

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TestRegistryConfiguration {

		@Bean
		TestObservationRegistry testObservationRegistry() {
			return TestObservationRegistry.create();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetricsConfiguration {

		@Bean
		SimpleMeterRegistry simpleMeterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		DefaultMeterObservationHandler defaultMeterObservationHandler(MeterRegistry meterRegistry) {
			return new DefaultMeterObservationHandler(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PolicyConfiguration {

		@Bean
		OrderedMiddleware policy() {
			return new OrderedMiddleware() {

				@Override
				public int order() {
					return 50;
				}

				@Override
				public String name() {
					return "policy";
				}

				@Override
				public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
					return (invocation) -> next.handle(invocation);
				}

			};
		}

	}

	public static class WeatherTools {

		@AgentTool(description = "Current weather for a city", safety = SafetyLevel.SAFE, readOnly = true)
		public String getWeather(String city) {
			if (city.equals("Atlantis")) {
				throw new IllegalStateException("no weather service for " + city);
			}
			return "Sunny in " + city;
		}

		@AgentTool(description = "Sets an alarm")
		public String setAlarm(int minutes) {
			return "Done";
		}

	}

}
