package dev.agentmiddleware.autoconfigure.redis;

import java.time.Duration;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@code agent.middleware.rate-limit.store.type: redis}: rate limits shared in Redis,
 * with Bucket4j's Lettuce backend on the client of Spring Boot's
 * {@link LettuceConnectionFactory} ({@code spring.data.redis.*}) and its command timeout.
 * Contributes the {@link RateLimiterStore} before the rate-limit auto-configuration runs;
 * without a {@code LettuceConnectionFactory} (or without Bucket4j's Lettuce backend) that
 * auto-configuration fails startup naming what is missing.
 */
@AutoConfiguration(before = ToolRateLimitAutoConfiguration.class, after = AgentMiddlewareAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ LettuceConnectionFactory.class, Bucket4jLettuce.class })
@ConditionalOnBean({ AgentToolRegistry.class, LettuceConnectionFactory.class })
@ConditionalOnBooleanProperty(name = ToolRateLimitProperties.PREFIX + ".enabled", matchIfMissing = true)
@ConditionalOnStoreType(prefix = ToolRateLimitProperties.PREFIX, value = StoreType.REDIS)
public final class RedisRateLimiterStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(RateLimiterStore.class)
	Bucket4jRedisRateLimiterStore redisRateLimiterStore(LettuceConnectionFactory connectionFactory) {
		return new Bucket4jRedisRateLimiterStore(connectionFactory.getRequiredNativeClient(),
				Duration.ofMillis(connectionFactory.getTimeout()));
	}

}
