package dev.agentmiddleware.autoconfigure.authorization;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;

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
 * Auto-configuration of per-tool authorization: an {@link AuthorizationMiddleware} that refuses a caller without
 * the authorities a tool declares ({@code @AgentTool(authorities = ...)}) or is configured with under
 * {@code agent.middleware.authorization}. A tool that requires none keeps its chain without it.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = AuthorizationProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(AuthorizationProperties.class)
public final class AuthorizationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AuthorizationMiddleware authorizationMiddleware(AuthorizationProperties properties) {
		return properties.applyTo(AuthorizationMiddleware.builder()).build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class AuthorizationEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "authorizationEndpointContributor")
		PolicyEndpointContributor authorizationEndpointContributor(AuthorizationMiddleware authorizationMiddleware) {
			return PolicyEndpointContributor.of(authorizationMiddleware);
		}

	}

}
