package dev.agentmiddleware.autoconfigure.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * Auto-configuration of the {@link CacheMiddleware} and the {@link ToolResultCache} it
 * stores results in (inject the latter to invalidate results or read statistics): caches
 * the results of read-only tools (and of the tools configured with {@code enabled: true})
 * per session, with the time to live and size of {@code agent.middleware.cache}. With a
 * {@code DataSource} (or {@code store.type: jdbc}) invalidations travel to the other
 * instances through the {@link CacheInvalidationTransport} a store module contributes
 * (the JDBC module's, on the database); entries stay local.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(Caffeine.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolCacheProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolCacheProperties.class)
public final class ToolCacheAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(ToolCacheAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ToolResultCache toolResultCache(ToolCacheProperties properties, ObjectProvider<MiddlewareMetrics> metrics,
			ObjectProvider<CacheInvalidationTransport> invalidations) {
		if (properties.getInvalidation().deprecatedTypeSet()) {
			logger.warn("{}.invalidation.type is deprecated: set {}.store.type instead (the same values), as every "
					+ "store is chosen", ToolCacheProperties.PREFIX, ToolCacheProperties.PREFIX);
		}
		ToolResultCache.Builder builder = ToolResultCache.builder()
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE));
		CacheInvalidationTransport shared = invalidations.getIfUnique();
		if (shared == null) {
			logger.info("Cache invalidations stay in this instance ({}.store.type=jdbc sends them to the "
					+ "others through the database)", ToolCacheProperties.PREFIX);
			return builder.build();
		}
		ToolResultCache cache = builder.onInvalidation(shared::publish).build();
		shared.start(cache);
		logger.info("Cache invalidations travel to every instance through {}; entries stay in each instance",
				shared.description());
		return cache;
	}

	@Bean
	@ConditionalOnMissingBean
	CacheMiddleware cacheMiddleware(ToolCacheProperties properties, ToolResultCache toolResultCache) {
		return properties.applyTo(CacheMiddleware.builder()).cache(toolResultCache).build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class CacheEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "cacheEndpointContributor")
		PolicyEndpointContributor cacheEndpointContributor(CacheMiddleware cacheMiddleware,
				ToolResultCache toolResultCache) {
			return PolicyEndpointContributor.of(cacheMiddleware).withSection(() -> statistics(toolResultCache));
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
