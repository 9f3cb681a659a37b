package dev.agentmiddleware.autoconfigure.actuate;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.observer.ToolCallObservers;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link AgentMiddlewareEndpoint agentmiddleware} actuator endpoint, when Actuator is
 * present and the endpoint is available (exposed and not disabled).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnAvailableEndpoint(AgentMiddlewareEndpoint.class)
public final class AgentMiddlewareEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AgentMiddlewareEndpoint agentMiddlewareEndpoint(AgentToolRegistry registry,
			ObjectProvider<ToolCallObservers> observers, ObjectProvider<AgentMiddlewareEndpointContributor> contributors) {
		return new AgentMiddlewareEndpoint(registry, observers.getIfAvailable(), contributors.orderedStream().toList());
	}

}
