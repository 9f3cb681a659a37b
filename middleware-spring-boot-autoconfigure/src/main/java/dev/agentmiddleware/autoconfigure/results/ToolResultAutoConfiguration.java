package dev.agentmiddleware.autoconfigure.results;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.results.ResultGuardMiddleware;
import dev.agentmiddleware.results.ToolResultGuard;
import tools.jackson.databind.json.JsonMapper;

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
 * Auto-configuration of result guards: a {@link ResultGuardMiddleware} that redacts secrets in every tool's result
 * (with the application's {@link SecretRedactor}, so {@code agent.middleware.redaction.secret-keys} applies),
 * runs the application's {@link ToolResultGuard} beans (in {@code @Order}) and cuts or refuses results longer than
 * {@code agent.middleware.results.defaults.max-chars} (or a tool's own), with the JSON mapper results are written
 * with.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolResultProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolResultProperties.class)
public final class ToolResultAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ResultGuardMiddleware resultGuardMiddleware(ToolResultProperties properties,
			ObjectProvider<ToolResultGuard> guards, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<MiddlewareMetrics> metrics, SecretRedactor secretRedactor) {
		return properties.applyTo(ResultGuardMiddleware.builder())
			.guards(guards.orderedStream().toList())
			.redactor(secretRedactor)
			.jsonMapper(jsonMapper.getIfAvailable(JsonMapper::new))
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class ResultEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "resultGuardEndpointContributor")
		PolicyEndpointContributor resultGuardEndpointContributor(ResultGuardMiddleware resultGuardMiddleware) {
			return PolicyEndpointContributor.of(resultGuardMiddleware);
		}

	}

}
