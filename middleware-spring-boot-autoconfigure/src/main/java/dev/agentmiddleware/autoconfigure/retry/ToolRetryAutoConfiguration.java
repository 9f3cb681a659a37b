package dev.agentmiddleware.autoconfigure.retry;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.retry.RetryMiddleware;
import io.github.resilience4j.retry.Retry;

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
 * Auto-configuration of {@link RetryMiddleware}: retries of every idempotent or read-only
 * tool, with per-tool settings under {@code agent.middleware.retry.tools}, by the rule of
 * {@code ToolRetryProperties}.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Retry.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolRetryProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolRetryProperties.class)
public final class ToolRetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RetryMiddleware retryMiddleware(ToolRetryProperties properties, ObjectProvider<MiddlewareMetrics> metrics) {
		return properties.applyTo(RetryMiddleware.builder())
			.sideEffectingTools(properties::isExplicitlyEnabled)
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class RetryEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "retryEndpointContributor")
		PolicyEndpointContributor retryEndpointContributor(RetryMiddleware retryMiddleware) {
			return PolicyEndpointContributor.of(retryMiddleware);
		}

	}

}
