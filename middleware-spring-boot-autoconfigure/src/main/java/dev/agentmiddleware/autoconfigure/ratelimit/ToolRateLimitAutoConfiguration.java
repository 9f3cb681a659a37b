package dev.agentmiddleware.autoconfigure.ratelimit;

import java.time.Duration;

import javax.sql.DataSource;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
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
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of {@link RateLimitMiddleware}: rate limits and session call budgets for the tools configured
 * under {@code agent.middleware.rate-limit.tools} (or for every tool when {@code defaults.enabled} is true), counted
 * in the {@link RateLimiterStore} that {@code agent.middleware.rate-limit.store.type} selects: in memory per instance,
 * or with Bucket4j in PostgreSQL or Redis, shared by every instance on the database or Redis.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class,
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnClass({ RateLimiter.class, Caffeine.class })
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolRateLimitProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolRateLimitProperties.class)
public final class ToolRateLimitAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimiterStore rateLimiterStore(ToolRateLimitProperties properties, ObjectProvider<DataSource> dataSource,
			ResourceLoader resourceLoader) {
		ClassLoader classLoader = resourceLoader.getClassLoader();
		return RateLimiterStoreSelection.select(properties, dataSource.getIfUnique(),
				(classLoader != null) ? classLoader : RateLimiterStoreSelection.class.getClassLoader());
	}

	@Bean
	@ConditionalOnMissingBean
	RateLimitMiddleware rateLimitMiddleware(ToolRateLimitProperties properties, ObjectProvider<MiddlewareMetrics> metrics,
			RateLimiterStore rateLimiterStore) {
		return properties.applyTo(RateLimitMiddleware.builder())
			.store(rateLimiterStore)
			.allowWhenStoreUnavailable(
					properties.getStore().getOnUnavailable() == ToolRateLimitProperties.OnUnavailable.ALLOW)
			.maxTrackedKeys(properties.getMaxTrackedKeys())
			.sessionIdleTimeout(properties.getSessionIdleTimeout())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	/**
	 * {@code store.type: redis}: Bucket4j's Lettuce backend on the client of Spring Boot's
	 * {@link LettuceConnectionFactory} ({@code spring.data.redis.*}), with its command timeout. Without one,
	 * {@link RateLimiterStoreSelection} fails startup naming what is missing.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { RateLimiterStoreSelection.LETTUCE_FACTORY_CLASS,
			RateLimiterStoreSelection.BUCKET4J_LETTUCE_CLASS })
	@ConditionalOnStoreType(prefix = ToolRateLimitProperties.PREFIX, value = StoreType.REDIS)
	static class RedisStoreConfiguration {

		@Bean
		@ConditionalOnMissingBean(RateLimiterStore.class)
		@ConditionalOnBean(LettuceConnectionFactory.class)
		Bucket4jRedisRateLimiterStore redisRateLimiterStore(ToolRateLimitProperties properties,
				LettuceConnectionFactory connectionFactory) {
			Bucket4jRedisRateLimiterStore store = new Bucket4jRedisRateLimiterStore(
					connectionFactory.getRequiredNativeClient(), Duration.ofMillis(connectionFactory.getTimeout()));
			RateLimiterStoreSelection.log(store, properties.getStore().getOnUnavailable());
			return store;
		}

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
