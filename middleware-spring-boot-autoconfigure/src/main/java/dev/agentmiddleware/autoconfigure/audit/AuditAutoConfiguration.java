package dev.agentmiddleware.autoconfigure.audit;

import java.util.Set;

import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.audit.InMemoryAuditStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.redaction.SecretRedactor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;

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
 * Auto-configuration of the audit trail: an {@link AuditTrail} that records every tool
 * call (a {@code ToolCallObserver}, so it sees every path and outcome) into the
 * {@link AuditStore} bean, in memory unless a store module contributes one
 * ({@code agent.middleware.audit.store.type}), its counters and its section of the
 * {@code agentmiddleware} endpoint.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = AuditProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(AuditProperties.class)
public final class AuditAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(AuditStore.class)
	InMemoryAuditStore auditStore(AuditProperties properties) {
		return new InMemoryAuditStore(properties.getMemory().getMaxRecords());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	AuditTrail auditTrail(AuditStore store, AuditProperties properties, ObjectProvider<SecretRedactor> redactor) {
		return AuditTrail.builder(store)
			.retention(properties.getRetention())
			.argumentsOf(Set.copyOf(properties.getIncludeArguments()))
			.bufferCapacity(properties.getBufferCapacity())
			.batchSize(properties.getBatchSize())
			.retryInterval(properties.getRetryInterval())
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class AuditMetricsConfiguration {

		@Bean
		MeterBinder auditTrailMeterBinder(AuditTrail trail) {
			return (registry) -> {
				FunctionCounter.builder("agent.audit.records.written", trail, AuditTrail::writtenRecords)
					.description("Audit records written to the audit store")
					.register(registry);
				FunctionCounter.builder("agent.audit.write.failures", trail, AuditTrail::writeFailures)
					.description("Batches of audit records the audit store refused (written again later)")
					.register(registry);
				FunctionCounter.builder("agent.audit.records.dropped", trail, AuditTrail::droppedRecords)
					.description("Audit records dropped because the audit buffer was full")
					.register(registry);
				Gauge.builder("agent.audit.records.pending", trail, AuditTrail::pendingRecords)
					.description("Audit records waiting to be written")
					.register(registry);
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class AuditEndpointConfiguration {

		@Bean
		AuditEndpointContributor auditEndpointContributor(AuditTrail trail) {
			return new AuditEndpointContributor(trail);
		}

	}

}
