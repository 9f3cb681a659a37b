package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.redaction.SecretRedactor;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configuration of what every part of the middleware shares: the
 * {@code agent.middleware} properties, the strict binding of every section under it and
 * the check of its keys, the {@link SecretRedactor}, and the {@link ToolCallObservers}
 * that deliver each finished call to every {@code ToolCallObserver} bean.
 * <p>
 * It runs after {@link AgentToolAutoConfiguration} (tool registration), so that every
 * built-in auto-configuration, ordered after this one, finds the tool registry its
 * conditions look for.
 */
@AutoConfiguration(after = AgentToolAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(AgentMiddlewareProperties.class)
public final class AgentMiddlewareAutoConfiguration {

	@Bean
	static StrictBinding agentMiddlewareStrictBinding() {
		return new StrictBinding();
	}

	@Bean
	UnknownPropertiesCheck agentMiddlewareUnknownPropertiesCheck(Environment environment,
			ListableBeanFactory beanFactory) {
		return new UnknownPropertiesCheck(environment, beanFactory);
	}

	@Bean
	SharedStoreCheck agentMiddlewareSharedStoreCheck(Environment environment, ListableBeanFactory beanFactory,
			ResourceLoader resourceLoader) {
		ClassLoader classLoader = resourceLoader.getClassLoader();
		return new SharedStoreCheck(environment, beanFactory,
				(classLoader != null) ? classLoader : SharedStoreCheck.class.getClassLoader());
	}

	@Bean
	@ConditionalOnMissingBean
	ToolCallObservers toolCallObservers(ObjectProvider<ToolCallObserver> observers,
			AgentMiddlewareProperties properties) {
		return ToolCallObservers.builder()
			.observers(observers.orderedStream().toList())
			.queueCapacity(properties.getObservers().getQueueCapacity())
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	SecretRedactor secretRedactor(AgentMiddlewareProperties properties) {
		return SecretRedactor.of(properties.getRedaction().getSecretKeys());
	}

}
