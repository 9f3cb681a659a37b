package dev.agentmiddleware.autoconfigure.timeout;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.timeout.TimeoutMiddleware;

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
 * Auto-configuration of per-tool timeouts: a {@link TimeoutMiddleware} for the tools with
 * a timeout under {@code agent.middleware.timeout}, whose threads stop when the
 * application context closes.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolTimeoutProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolTimeoutProperties.class)
public final class ToolTimeoutAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	TimeoutMiddleware timeoutMiddleware(ToolTimeoutProperties properties) {
		return properties.applyTo(TimeoutMiddleware.builder())
			.maxThreads(properties.getMaxThreads())
			.queueCapacity(properties.getQueueCapacity())
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class TimeoutEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "timeoutEndpointContributor")
		PolicyEndpointContributor timeoutEndpointContributor(TimeoutMiddleware timeoutMiddleware) {
			return PolicyEndpointContributor.of(timeoutMiddleware).withSection(() -> pool(timeoutMiddleware));
		}

		private static Map<String, Integer> pool(TimeoutMiddleware timeoutMiddleware) {
			Map<String, Integer> pool = new LinkedHashMap<>();
			pool.put("maxThreads", timeoutMiddleware.maxThreads());
			pool.put("queueCapacity", timeoutMiddleware.queueCapacity());
			pool.put("activeThreads", timeoutMiddleware.activeThreads());
			pool.put("queuedCalls", timeoutMiddleware.queuedCalls());
			return pool;
		}

	}

}
