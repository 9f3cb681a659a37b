package dev.agentmiddleware.autoconfigure.recovery;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.recovery.CrashRecoveryMiddleware;
import dev.agentmiddleware.recovery.ToolSessionReset;

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
 * Auto-configuration of crash recovery: a {@link CrashRecoveryMiddleware} for the tools
 * tagged or named as session tools under {@code agent.middleware.crash-recovery},
 * resetting sessions through the context's {@link ToolSessionReset} bean. Without such a
 * bean a crash only becomes a clean error.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = CrashRecoveryProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(CrashRecoveryProperties.class)
public final class CrashRecoveryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CrashRecoveryMiddleware crashRecoveryMiddleware(CrashRecoveryProperties properties,
			ObjectProvider<ToolSessionReset> sessionReset, ObjectProvider<MiddlewareMetrics> metrics) {
		return properties.applyTo(CrashRecoveryMiddleware.builder())
			.sessionReset(sessionReset.getIfAvailable())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class CrashRecoveryEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "crashRecoveryEndpointContributor")
		PolicyEndpointContributor crashRecoveryEndpointContributor(CrashRecoveryMiddleware crashRecoveryMiddleware) {
			return PolicyEndpointContributor.of(crashRecoveryMiddleware)
				.withSection(() -> Map.of("sessionReset", crashRecoveryMiddleware.hasSessionReset()));
		}

	}

}
