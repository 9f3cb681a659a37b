package dev.agentmiddleware.autoconfigure.approval;

import java.time.Clock;

import dev.agentmiddleware.approval.ApprovalAuditListener;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.approval.ApprovalProvider.CallbackApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ArgumentsBinder;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
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
 * Auto-configuration of human approval: an {@link ApprovalMiddleware} gating the tools
 * that {@code agent.middleware.approval.policy}, {@code exempt-tools} and
 * {@code sensitive-tools} select; its providers in the order of
 * {@code agent.middleware.approval.providers} (a user's {@link ApprovalCallback} bean,
 * and the providers other modules contribute: the in-app queue of the approval web
 * module, MCP elicitation and links of the MCP server module); and its store, in memory
 * unless a store module (JDBC) contributes one.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ApprovalProperties.class)
public final class ApprovalAutoConfiguration {

	// The mapping of the properties, built once for the beans below
	@Bean
	ApprovalConfigurer approvalConfigurer(ApprovalProperties properties) {
		return new ApprovalConfigurer(properties);
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalRules approvalRules(ApprovalConfigurer approvalConfigurer) {
		return approvalConfigurer.rules();
	}

	@Bean
	ToolNameReferences approvalToolNames(ApprovalConfigurer approvalConfigurer) {
		return approvalConfigurer.toolNames();
	}

	@Bean
	ToolNameReferences approvalExemptToolNames(ApprovalConfigurer approvalConfigurer) {
		return approvalConfigurer.exemptToolNames();
	}

	@Bean
	ToolNameReferences approvalSensitiveToolNames(ApprovalConfigurer approvalConfigurer) {
		return approvalConfigurer.sensitiveToolNames();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ApprovalThreads approvalThreads() {
		return new ApprovalThreads();
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalStore approvalStore(ApprovalProperties properties) {
		return new InMemoryApprovalStore(properties.getStore().getMaxAuditRecords(),
				properties.getStore().getMaxRemembered());
	}

	@Bean
	@ConditionalOnBean(ApprovalCallback.class)
	@ConditionalOnMissingBean(CallbackApprovalProvider.class)
	CallbackApprovalProvider callbackApprovalProvider(ApprovalCallback callback, ApprovalThreads approvalThreads) {
		return new CallbackApprovalProvider(callback, approvalThreads.executor());
	}

	@Bean
	@ConditionalOnMissingBean
	ArgumentsBinder approvalArgumentsBinder(ObjectProvider<AgentToolRegistry> registry) {
		return (tool, json) -> registry.getObject().get(tool.name()).bind(json);
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalMiddleware approvalMiddleware(ApprovalProperties properties, ApprovalConfigurer approvalConfigurer,
			ApprovalRules rules, ObjectProvider<ApprovalProvider> providers, ApprovalStore store,
			ArgumentsBinder approvalArgumentsBinder, ObjectProvider<SecretRedactor> redactor,
			ObjectProvider<MiddlewareMetrics> metrics, ObjectProvider<ApprovalAuditListener> listeners,
			ObjectProvider<Clock> clock) {
		ApprovalMiddleware.Builder builder = approvalConfigurer.configure(ApprovalMiddleware.builder())
			.policies(rules)
			.provider(new CompositeApprovalProvider(
					ApprovalProviderOrder.ordered(providers.orderedStream().toList(), properties.getProviders())))
			.store(store)
			.argumentsBinder(approvalArgumentsBinder)
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults))
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.clock(clock.getIfAvailable(Clock::systemUTC));
		listeners.orderedStream().forEach(builder::auditListener);
		return builder.build();
	}

	@Bean
	ApprovalShutdown approvalShutdown(ApprovalMiddleware approvalMiddleware) {
		return new ApprovalShutdown(approvalMiddleware);
	}

	@Bean
	ApprovalProviders approvalProviders(ObjectProvider<ApprovalProvider> providers, ApprovalProperties properties,
			ObjectProvider<AgentToolRegistry> registry, ApprovalRules rules) {
		return new ApprovalProviders(providers, properties, registry, rules);
	}

	@Bean
	SmartInitializingSingleton approvalStartupReport(ApprovalRules rules, ApprovalMiddleware approvalMiddleware,
			ApprovalProperties properties, ApprovalProviders approvalProviders) {
		return new ApprovalStartupReport(rules, approvalMiddleware, properties, approvalProviders);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "approvalOutcomeMetrics")
		ApprovalAuditListener approvalOutcomeMetrics(MeterRegistry meterRegistry) {
			return new ApprovalOutcomeCounter(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class ApprovalEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "approvalEndpointContributor")
		PolicyEndpointContributor approvalEndpointContributor(ApprovalMiddleware approvalMiddleware,
				ApprovalProperties properties, ObjectProvider<Clock> clock) {
			return ApprovalEndpointContributor.of(approvalMiddleware, properties,
					clock.getIfAvailable(Clock::systemUTC));
		}

	}

}
