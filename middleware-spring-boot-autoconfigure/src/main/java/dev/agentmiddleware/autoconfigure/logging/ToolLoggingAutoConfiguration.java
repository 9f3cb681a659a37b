package dev.agentmiddleware.autoconfigure.logging;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.results.ResultGuardMiddleware;

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
 * Auto-configuration of the {@link LoggingMiddleware}: one structured line per tool call,
 * with the arguments redacted by the context's {@link SecretRedactor}
 * ({@code agent.middleware.redaction.secret-keys}) and, for the tools whose results the
 * {@link ResultGuardMiddleware} masks personal data in, the same personal data masked.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolLoggingProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolLoggingProperties.class)
public final class ToolLoggingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LoggingMiddleware loggingMiddleware(ToolLoggingProperties properties, ObjectProvider<SecretRedactor> redactor,
			ObjectProvider<ResultGuardMiddleware> resultGuard) {
		LoggingMiddleware.Builder builder = properties.applyTo(LoggingMiddleware.builder())
			.logger(properties.getLoggerName())
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults));
		resultGuard.ifAvailable((results) -> builder.masking(results::personalDataMasking));
		return builder.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class LoggingEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "loggingEndpointContributor")
		PolicyEndpointContributor loggingEndpointContributor(LoggingMiddleware loggingMiddleware) {
			return PolicyEndpointContributor.of(loggingMiddleware);
		}

	}

}
