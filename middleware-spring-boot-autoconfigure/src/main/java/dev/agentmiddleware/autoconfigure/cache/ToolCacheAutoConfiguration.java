package dev.agentmiddleware.autoconfigure.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CacheStatistics;
import dev.agentmiddleware.cache.ToolResultCache;
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
 * Auto-configuration of the {@link CacheMiddleware} and the {@link ToolResultCache} it stores results in (inject
 * the latter to invalidate results or read statistics): caches the results of read-only tools (and of the tools
 * configured with {@code enabled: true}) per session, with the time to live and size of
 * {@code agent.middleware.cache}.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Caffeine.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolCacheProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolCacheProperties.class)
public final class ToolCacheAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ToolResultCache toolResultCache(ObjectProvider<MiddlewareMetrics> metrics) {
		return ToolResultCache.builder().metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE)).build();
	}

	@Bean
	@ConditionalOnMissingBean
	CacheMiddleware cacheMiddleware(ToolCacheProperties properties, ToolResultCache toolResultCache) {
		properties.validate();
		return CacheMiddleware.builder()
			.policies(properties::policyFor)
			.order(properties.getOrder())
			.cache(toolResultCache)
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
		PolicyEndpointContributor cacheEndpointContributor(CacheMiddleware cacheMiddleware,
				ToolResultCache toolResultCache) {
			return PolicyEndpointContributor.of(cacheMiddleware, (tool) -> cacheMiddleware.policies().get(tool))
				.withSection(() -> statistics(toolResultCache));
		}

		// Tool name to hits, misses, evictions, size and hit rate, sorted by tool name.
		private static Map<String, Map<String, Object>> statistics(ToolResultCache toolResultCache) {
			Map<String, Map<String, Object>> statistics = new TreeMap<>();
			toolResultCache.statistics().forEach((tool, counts) -> statistics.put(tool, describe(counts)));
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
