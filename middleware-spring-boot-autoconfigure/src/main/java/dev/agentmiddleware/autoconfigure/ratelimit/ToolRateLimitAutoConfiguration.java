package dev.agentmiddleware.autoconfigure.ratelimit;

import javax.sql.DataSource;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import io.github.resilience4j.ratelimiter.RateLimiter;

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
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configuration of {@link RateLimitMiddleware}: rate limits and session call budgets
 * for the tools configured under {@code agent.middleware.rate-limit.tools} (or for every
 * tool when {@code defaults.enabled} is true), counted in the {@link RateLimiterStore}
 * that {@code agent.middleware.rate-limit.store.type} selects: in memory per instance, or
 * shared by every instance through a store module: PostgreSQL
 * ({@link DatabaseRateLimiterStores}, the JDBC module) or Redis (the Redis module's store
 * bean).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ RateLimiter.class, Caffeine.class })
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolRateLimitProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolRateLimitProperties.class)
public final class ToolRateLimitAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimiterStore rateLimiterStore(ToolRateLimitProperties properties, ObjectProvider<DataSource> dataSource,
			ObjectProvider<DatabaseRateLimiterStores> database, ResourceLoader resourceLoader) {
		ClassLoader classLoader = resourceLoader.getClassLoader();
		return RateLimiterStoreSelection.select(properties, dataSource.getIfUnique(), database.getIfUnique(),
				(classLoader != null) ? classLoader : RateLimiterStoreSelection.class.getClassLoader());
	}

	@Bean
	@ConditionalOnMissingBean
	RateLimitMiddleware rateLimitMiddleware(ToolRateLimitProperties properties,
			ObjectProvider<MiddlewareMetrics> metrics, RateLimiterStore rateLimiterStore) {
		RateLimiterStoreSelection.log(rateLimiterStore, properties.getStore().getOnUnavailable());
		return properties.applyTo(RateLimitMiddleware.builder())
			.store(rateLimiterStore)
			.allowWhenStoreUnavailable(
					properties.getStore().getOnUnavailable() == ToolRateLimitProperties.OnUnavailable.ALLOW)
			.maxTrackedKeys(properties.getMaxTrackedKeys())
			.sessionIdleTimeout(properties.getSessionIdleTimeout())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class RateLimitEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "rateLimitEndpointContributor")
		PolicyEndpointContributor rateLimitEndpointContributor(RateLimitMiddleware rateLimitMiddleware) {
			return PolicyEndpointContributor.of(rateLimitMiddleware);
		}

	}

}
