package dev.agentmiddleware.autoconfigure.observation;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.metrics.MiddlewareEvent;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.observation.MicrometerMiddlewareMetrics;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.observation.ToolCallObservationConvention;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
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

/**
 * Auto-configuration of the {@link ObservationMiddleware}: one observation per tool call through the context's
 * {@link ObservationRegistry} (with a {@link ToolCallObservationConvention} bean, if any), and, when a
 * {@link MeterRegistry} exists, the {@link MicrometerMiddlewareMetrics} the built-ins count their decisions with
 * and a counter of the call records the observers dropped.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
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
			ObjectProvider<ToolCallObservationConvention> convention) {
		return ObservationMiddleware.builder(observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP))
			.convention(convention.getIfUnique())
			.tools((tool) -> properties.policyFor(tool) != null)
			.order(properties.getOrder())
			.build();
	}

	@Bean
	ToolNameReferences observationToolNameReferences(ToolObservationProperties properties) {
		return properties.toolNameReferences();
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
