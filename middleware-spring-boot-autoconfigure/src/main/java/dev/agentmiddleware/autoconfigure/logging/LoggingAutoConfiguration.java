package dev.agentmiddleware.autoconfigure.logging;

import java.util.Objects;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.logging.LoggingPolicy;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
import dev.agentmiddleware.tool.ToolDescriptor;
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

/**
 * Auto-configuration of the {@link LoggingMiddleware}: one structured line per tool call, with the arguments
 * redacted by the context's {@link SecretRedactor} ({@code agent.middleware.redaction.secret-keys}).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = LoggingProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(LoggingProperties.class)
public final class LoggingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LoggingMiddleware loggingMiddleware(LoggingProperties properties, ObjectProvider<SecretRedactor> redactor) {
		// Invalid settings fail startup here, naming the property, rather than when a tool's pipeline is built.
		policy(properties.getDefaults(), LoggingProperties.PREFIX + ".defaults");
		properties.getTools()
			.forEach((name, settings) -> policy(settings.withDefaults(properties.getDefaults()),
					LoggingProperties.PREFIX + ".tools." + name));
		return LoggingMiddleware.builder()
			.logger(properties.getLoggerName())
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults))
			.policy((tool) -> policyOf(properties, tool))
			.order(properties.getOrder())
			.build();
	}

	@Bean
	ToolNameReferences loggingToolNameReferences(LoggingProperties properties) {
		return PerToolSettings.references(LoggingProperties.PREFIX + ".tools", properties.getTools());
	}

	private static @Nullable LoggingPolicy policyOf(LoggingProperties properties, ToolDescriptor tool) {
		LoggingProperties.Settings settings = PerToolSettings.resolve(properties.getDefaults(), properties.getTools(),
				tool.name());
		return Boolean.FALSE.equals(settings.getEnabled()) ? null
				: policy(settings, LoggingProperties.PREFIX + ".tools." + tool.name());
	}

	private static LoggingPolicy policy(LoggingProperties.Settings settings, String property) {
		return PerToolSettings.policy(property, () -> new LoggingPolicy(
				Objects.requireNonNullElse(settings.getMaxValueLength(), LoggingPolicy.DEFAULT.maxValueLength()),
				Objects.requireNonNullElse(settings.getLogResults(), LoggingPolicy.DEFAULT.logResults())));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class LoggingEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "loggingEndpointContributor")
		PolicyEndpointContributor loggingEndpointContributor(LoggingMiddleware loggingMiddleware) {
			return PolicyEndpointContributor.of(loggingMiddleware, (tool) -> loggingMiddleware.policies().get(tool));
		}

	}

}
