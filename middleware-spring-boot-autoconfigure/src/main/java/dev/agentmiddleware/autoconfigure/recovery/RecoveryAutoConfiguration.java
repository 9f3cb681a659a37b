package dev.agentmiddleware.autoconfigure.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.actuate.PolicyEndpointContributor;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.recovery.CrashRecoveryMiddleware;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy;
import dev.agentmiddleware.recovery.SessionToolMatcher;
import dev.agentmiddleware.recovery.ToolSessionReset;
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
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of crash recovery: a {@link CrashRecoveryMiddleware} for the tools tagged or named as session
 * tools under {@code agent.middleware.recovery}, resetting sessions through the context's {@link ToolSessionReset}
 * bean. Without such a bean a crash only becomes a clean error.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = RecoveryProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(RecoveryProperties.class)
public final class RecoveryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CrashRecoveryMiddleware crashRecoveryMiddleware(RecoveryProperties properties,
			ObjectProvider<ToolSessionReset> sessionReset, ObjectProvider<MiddlewareMetrics> metrics) {
		SessionToolMatcher matcher = SessionToolMatcher.of(properties.getTags(), properties.getToolNamePatterns());
		// Resolve every configured exception type now, so that a typo fails startup naming its property.
		CrashRecoveryPolicy defaults = policy(RecoveryProperties.PREFIX + ".defaults", properties.getDefaults());
		for (Map.Entry<String, RecoveryProperties.Settings> tool : properties.getTools().entrySet()) {
			policy(RecoveryProperties.PREFIX + ".tools." + tool.getKey(),
					tool.getValue().withDefaults(properties.getDefaults()));
		}
		return CrashRecoveryMiddleware.builder()
			.policies((tool) -> policy(tool, properties, matcher, defaults))
			.sessionReset(sessionReset.getIfAvailable())
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.order(properties.getOrder())
			.build();
	}

	@Bean
	ToolNameReferences crashRecoveryToolNames(RecoveryProperties properties) {
		return PerToolSettings.references(RecoveryProperties.PREFIX + ".tools", properties.getTools());
	}

	private static @Nullable CrashRecoveryPolicy policy(ToolDescriptor tool, RecoveryProperties properties,
			SessionToolMatcher matcher, CrashRecoveryPolicy defaults) {
		boolean configured = PerToolSettings.isConfigured(properties.getTools(), tool.name());
		RecoveryProperties.Settings settings = PerToolSettings.resolve(properties.getDefaults(), properties.getTools(),
				tool.name());
		boolean applies = (settings.getEnabled() != null) ? settings.getEnabled() : matcher.matches(tool);
		if (!applies) {
			return null;
		}
		return configured ? policy(RecoveryProperties.PREFIX + ".tools." + tool.name(), settings) : defaults;
	}

	private static CrashRecoveryPolicy policy(String property, RecoveryProperties.Settings settings) {
		List<String> names = (settings.getCrashExceptions() != null) ? settings.getCrashExceptions() : List.of();
		List<Class<? extends Exception>> types = new ArrayList<>(names.size());
		for (String name : names) {
			types.add(exceptionType(property + ".crash-exceptions", name.strip()));
		}
		return new CrashRecoveryPolicy(types, !Boolean.FALSE.equals(settings.getAnyRuntimeExceptionIsCrash()));
	}

	private static Class<? extends Exception> exceptionType(String property, String name) {
		Class<?> type;
		try {
			type = ClassUtils.forName(name, null);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new IllegalStateException("Property '" + property + "' names the class '" + name
					+ "', which cannot be loaded; use the fully qualified name of an exception type", ex);
		}
		if (!Exception.class.isAssignableFrom(type)) {
			throw new IllegalStateException("Property '" + property + "' names the class '" + name
					+ "', which is not an exception type");
		}
		return type.asSubclass(Exception.class);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class CrashRecoveryEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "crashRecoveryEndpointContributor")
		PolicyEndpointContributor crashRecoveryEndpointContributor(CrashRecoveryMiddleware crashRecoveryMiddleware) {
			return PolicyEndpointContributor
				.of(crashRecoveryMiddleware, (tool) -> crashRecoveryMiddleware.policies().get(tool))
				.withSection(() -> Map.of("sessionReset", crashRecoveryMiddleware.hasSessionReset()));
		}

	}

}
