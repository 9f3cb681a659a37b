package dev.agentmiddleware.autoconfigure.actuate;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.callrecord.ToolCallObservers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the {@link AgentMiddlewareEndpoint agentmiddleware} actuator
 * endpoint, when Actuator is present and the endpoint is available (exposed and not
 * disabled).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(AgentToolRegistry.class)
public final class AgentMiddlewareEndpointAutoConfiguration {

	// Nested, so that the endpoint condition (from spring-boot-actuator-autoconfigure) is
	// only loaded when the
	// class condition above has found Actuator.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(AgentMiddlewareEndpoint.class)
	static class AgentMiddlewareEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		AgentMiddlewareEndpoint agentMiddlewareEndpoint(AgentToolRegistry registry,
				ObjectProvider<ToolCallObservers> observers,
				ObjectProvider<AgentMiddlewareEndpointContributor> contributors) {
			return new AgentMiddlewareEndpoint(registry, observers.getIfAvailable(),
					contributors.orderedStream().toList());
		}

	}

}
