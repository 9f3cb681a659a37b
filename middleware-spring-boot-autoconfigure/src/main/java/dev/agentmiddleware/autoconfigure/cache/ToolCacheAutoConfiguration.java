package dev.agentmiddleware.autoconfigure.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CacheStatistics;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ToolNameReferences;

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
 * Auto-configuration of the {@link CacheMiddleware}: caches the results of read-only tools and of the tools listed
 * under {@code agent.middleware.cache.tools}, per session, by the rule of {@link ToolCacheProperties}.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Caffeine.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolCacheProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolCacheProperties.class)
public final class ToolCacheAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CacheMiddleware cacheMiddleware(ToolCacheProperties properties, ObjectProvider<MiddlewareMetrics> metrics) {
		properties.validate();
		return CacheMiddleware.builder()
			.policies(properties::policyFor)
			.order(properties.getOrder())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Bean
	ToolNameReferences cacheToolNameReferences(ToolCacheProperties properties) {
		return properties.toolNameReferences();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class CacheEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "cacheEndpointContributor")
		PolicyEndpointContributor cacheEndpointContributor(CacheMiddleware cacheMiddleware) {
			return PolicyEndpointContributor.of(cacheMiddleware, (tool) -> cacheMiddleware.policies().get(tool))
				.withSection(() -> statistics(cacheMiddleware));
		}

		// Tool name to hits, misses, evictions, size and hit rate, sorted by tool name.
		private static Map<String, Map<String, Object>> statistics(CacheMiddleware cacheMiddleware) {
			Map<String, Map<String, Object>> statistics = new TreeMap<>();
			cacheMiddleware.statistics().forEach((tool, counts) -> statistics.put(tool, describe(counts)));
			return statistics;
		}

		private static Map<String, Object> describe(CacheStatistics counts) {
			Map<String, Object> description = new LinkedHashMap<>();
			description.put("hits", counts.hits());
			description.put("misses", counts.misses());
			description.put("evictions", counts.evictions());
			description.put("size", counts.size());
			description.put("hitRate", counts.hitRate());
			return description;
		}

	}

}
