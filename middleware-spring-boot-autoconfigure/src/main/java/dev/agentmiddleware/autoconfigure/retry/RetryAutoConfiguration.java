package dev.agentmiddleware.autoconfigure.retry;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
import dev.agentmiddleware.tool.ToolDescriptor;
import io.github.resilience4j.retry.Retry;
import org.jspecify.annotations.Nullable;

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


import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;
/**
 * Auto-configuration of {@link RetryMiddleware}: retries of every idempotent or read-only tool, with per-tool
 * settings under {@code agent.middleware.retry.tools}. Configuring retries for a tool that is neither idempotent nor
 * read-only fails startup, when the registry builds the tools' pipelines.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Retry.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = RetryProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(RetryProperties.class)
public final class RetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RetryMiddleware retryMiddleware(RetryProperties properties, ObjectProvider<MiddlewareMetrics> metrics) {
		// Invalid settings fail startup here, naming the property, even for tools not retried yet.
		policy(properties.getDefaults(), RetryProperties.PREFIX + ".defaults");
		properties.getTools()
			.forEach((name, settings) -> policy(settings.withDefaults(properties.getDefaults()),
					RetryProperties.PREFIX + ".tools." + name));
		return RetryMiddleware.builder((tool) -> policyOf(properties, tool))
			.order(properties.getOrder())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Bean
	ToolNameReferences retryToolNames(RetryProperties properties) {
		return PerToolSettings.references(RetryProperties.PREFIX + ".tools", properties.getTools());
	}

	// Called by the registry when it builds the tools' pipelines at startup, so a side-effecting tool configured
	// for retries fails startup.
	private static @Nullable RetryPolicy policyOf(RetryProperties properties, ToolDescriptor tool) {
		Map<String, RetryProperties.Settings> tools = properties.getTools();
		boolean configured = PerToolSettings.isConfigured(tools, tool.name());
		boolean enabled;
		if (configured) {
			// A tool listed under 'tools' is retried unless it says otherwise, whatever the defaults say.
			Boolean own = PerToolSettings.resolve(new RetryProperties.Settings(), tools, tool.name()).getEnabled();
			enabled = (own == null) || own;
		}
		else {
			enabled = !Boolean.FALSE.equals(properties.getDefaults().getEnabled());
		}
		if (!enabled) {
			return null;
		}
		if (!RetryMiddleware.isRetryable(tool)) {
			if (configured) {
				throw new IllegalStateException("Tool '" + tool.name() + "' is configured for retries under "
						+ RetryProperties.PREFIX + ".tools but is neither idempotent nor read-only: a retry could "
						+ "repeat its side effects. Declare @AgentTool(idempotent = true) if running it twice is safe, "
						+ "or remove its retry configuration.");
			}
			return null;
		}
		return policy(PerToolSettings.resolve(properties.getDefaults(), tools, tool.name()),
				RetryProperties.PREFIX + ".tools." + tool.name());
	}

	private static RetryPolicy policy(RetryProperties.Settings settings, String property) {
		return PerToolSettings.policy(property,
				() -> new RetryPolicy(required(settings.getMaxAttempts(), "max-attempts"),
						required(settings.getInitialBackoff(), "initial-backoff"),
						required(settings.getMultiplier(), "multiplier"), required(settings.getJitter(), "jitter"),
						required(settings.getMaxBackoff(), "max-backoff"),
						required(settings.getRetryExceptions(), "retry-exceptions"),
						required(settings.getIgnoreExceptions(), "ignore-exceptions")));
	}


	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class RetryEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "retryEndpointContributor")
		PolicyEndpointContributor retryEndpointContributor(RetryMiddleware retryMiddleware) {
			return PolicyEndpointContributor.of(retryMiddleware, (tool) -> retryMiddleware.policies().get(tool));
		}

	}

}
