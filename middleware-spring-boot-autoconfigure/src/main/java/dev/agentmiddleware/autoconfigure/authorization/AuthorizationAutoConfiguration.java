package dev.agentmiddleware.autoconfigure.authorization;

import java.util.List;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationRulesMiddleware;
import dev.agentmiddleware.authorization.ToolCallDecider;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;

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
 * Auto-configuration of per-tool authorization: an {@link AuthorizationMiddleware} that
 * refuses a caller without the authorities a tool declares
 * ({@code @AgentTool(authorities = ...)}) or is configured with under
 * {@code agent.middleware.authorization}, and an {@link AuthorizationRulesMiddleware}
 * that refuses a call its configured rules ({@code deny-when}, {@code allow-when}) or a
 * {@link ToolCallDecider} bean refuse, after the arguments are bound and before approval.
 * A tool that requires none and has no rules keeps its chain without them.
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

	@Bean
	@ConditionalOnMissingBean
	AuthorizationRulesMiddleware authorizationRulesMiddleware(AuthorizationProperties properties,
			ObjectProvider<ToolCallDecider> deciders) {
		List<ToolCallDecider> ordered = deciders.orderedStream().toList();
		return AuthorizationRulesMiddleware.builder().policies((tool) -> properties.rulesFor(tool, ordered)).build();
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
