package dev.agentmiddleware.autoconfigure.ratelimit;

import java.util.Map;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
import dev.agentmiddleware.tool.ToolDescriptor;
import io.github.resilience4j.ratelimiter.RateLimiter;
import org.jspecify.annotations.Nullable;

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


import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;
/**
 * Auto-configuration of {@link RateLimitMiddleware}: rate limits and session call budgets for the tools configured
 * under {@code agent.middleware.rate-limit.tools} (or for every tool when {@code defaults.enabled} is true).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass({ RateLimiter.class, Caffeine.class })
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = RateLimitProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimitMiddleware rateLimitMiddleware(RateLimitProperties properties, ObjectProvider<MiddlewareMetrics> metrics) {
		// Invalid settings fail startup here, naming the property, even for tools not limited yet.
		policy(properties.getDefaults(), RateLimitProperties.PREFIX + ".defaults");
		properties.getTools()
			.forEach((name, settings) -> policy(settings.withDefaults(properties.getDefaults()),
					RateLimitProperties.PREFIX + ".tools." + name));
		return RateLimitMiddleware.builder((tool) -> policyOf(properties, tool))
			.order(properties.getOrder())
			.maxTrackedKeys(properties.getMaxTrackedKeys())
			.sessionIdleTimeout(properties.getSessionIdleTimeout())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Bean
	ToolNameReferences rateLimitToolNames(RateLimitProperties properties) {
		return PerToolSettings.references(RateLimitProperties.PREFIX + ".tools", properties.getTools());
	}

	private static @Nullable RateLimitPolicy policyOf(RateLimitProperties properties, ToolDescriptor tool) {
		Map<String, RateLimitProperties.Settings> tools = properties.getTools();
		RateLimitProperties.Settings defaults = properties.getDefaults();
		boolean enabled;
		if (PerToolSettings.isConfigured(tools, tool.name())) {
			// A tool listed under 'tools' is limited unless it says otherwise, whatever the defaults say.
			Boolean own = PerToolSettings.resolve(new RateLimitProperties.Settings(), tools, tool.name()).getEnabled();
			enabled = (own == null) || own;
		}
		else {
			enabled = Boolean.TRUE.equals(defaults.getEnabled());
		}
		return enabled ? policy(PerToolSettings.resolve(defaults, tools, tool.name()),
				RateLimitProperties.PREFIX + ".tools." + tool.name()) : null;
	}

	private static RateLimitPolicy policy(RateLimitProperties.Settings settings, String property) {
		return PerToolSettings.policy(property,
				() -> new RateLimitPolicy(required(settings.getLimitForPeriod(), "limit-for-period"),
						required(settings.getLimitRefreshPeriod(), "limit-refresh-period"),
						required(settings.getMaxWait(), "max-wait"), required(settings.getKey(), "key"),
						settings.getMaxCallsPerSession()));
	}


	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class RateLimitEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "rateLimitEndpointContributor")
		PolicyEndpointContributor rateLimitEndpointContributor(RateLimitMiddleware rateLimitMiddleware) {
			return PolicyEndpointContributor.of(rateLimitMiddleware,
					(tool) -> rateLimitMiddleware.policies().get(tool));
		}

	}

}
