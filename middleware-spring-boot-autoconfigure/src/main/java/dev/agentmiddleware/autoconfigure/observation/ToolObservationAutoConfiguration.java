package dev.agentmiddleware.autoconfigure.observation;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.observation.AgentToolObservationConvention;
import dev.agentmiddleware.observation.MicrometerMiddlewareMetrics;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.observation.ObservationMiddleware.ToolCallMeterObservationHandler;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Auto-configuration of the {@link ObservationMiddleware}: one observation per tool call
 * through the context's {@link ObservationRegistry} (with a
 * {@link AgentToolObservationConvention} bean, if any), and, when a {@link MeterRegistry}
 * exists, cached timers instead of observations for the calls the tool did not run (cache
 * hits, denials), a {@link ToolCallMeterObservationHandler} that times tool calls without
 * the long-task timer (unless {@code agent.middleware.observation.long-task-timer} is
 * {@code true}), the {@link MicrometerMiddlewareMetrics} the built-ins count their
 * decisions with and a counter of the call records the observers dropped.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolObservationProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolObservationProperties.class)
public final class ToolObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ObservationMiddleware observationMiddleware(ToolObservationProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<AgentToolObservationConvention> convention) {
		return observationMiddlewareBuilder(properties, observationRegistry, convention).build();
	}

	private static ObservationMiddleware.Builder observationMiddlewareBuilder(ToolObservationProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<AgentToolObservationConvention> convention) {
		return properties.applyTo(ObservationMiddleware.builder())
			.registry(observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP))
			.convention(convention.getIfUnique());
	}

	// Processed before the bean methods of the enclosing class, so that with Micrometer's
	// meters the middleware
	// times the calls the tool did not run with cached timers.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class MeteredObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ObservationMiddleware observationMiddleware(ToolObservationProperties properties,
				ObjectProvider<ObservationRegistry> observationRegistry,
				ObjectProvider<AgentToolObservationConvention> convention,
				ObjectProvider<MeterRegistry> meterRegistry) {
			return observationMiddlewareBuilder(properties, observationRegistry, convention)
				.meterRegistry(meterRegistry.getIfAvailable())
				.build();
		}

		// First among the meter handlers, so that tool calls get a timer without the
		// default long-task timer. Only
		// where Spring Boot groups the meter handlers (its metrics auto-configuration
		// does), which makes the first
		// one that supports a context its only meter handler; ungrouped, both handlers
		// would time each call.
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		@ConditionalOnBean(type = { "io.micrometer.core.instrument.MeterRegistry",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup" })
		@ConditionalOnMissingBean
		@ConditionalOnBooleanProperty(name = ToolObservationProperties.PREFIX + ".long-task-timer", havingValue = false,
				matchIfMissing = true)
		ToolCallMeterObservationHandler toolCallMeterObservationHandler(MeterRegistry meterRegistry) {
			return new ToolCallMeterObservationHandler(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class MiddlewareMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(MiddlewareMetrics.class)
		MicrometerMiddlewareMetrics middlewareMetrics(MeterRegistry meterRegistry) {
			return new MicrometerMiddlewareMetrics(meterRegistry);
		}

		@Bean
		MeterBinder toolCallObserverDropsMeterBinder(ObjectProvider<ToolCallObservers> observers) {
			return (registry) -> observers.ifAvailable((available) -> FunctionCounter
				.builder(MiddlewareEvent.OBSERVER_RECORD_DROPPED.meterName(), available,
						ToolCallObservers::droppedRecords)
				.description("Tool call records dropped because the asynchronous observers could not keep up")
				.register(registry));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class ObservationEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "observationEndpointContributor")
		PolicyEndpointContributor observationEndpointContributor(ObservationMiddleware observationMiddleware) {
			// Whether a tool is observed is its only setting, and its chain says it is.
			return PolicyEndpointContributor.of(observationMiddleware, (tool) -> Map.of("enabled", true));
		}

	}

}
