package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.observer.ToolCallObserver;
import dev.agentmiddleware.observer.ToolCallObservers;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.spring.tool.AgentToolBeanPostProcessor;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.ChainBeans;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
import dev.agentmiddleware.spring.tool.ToolPipelineFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of {@code @AgentTool} beans: the post-processor that wraps them in the middleware chain, the
 * tool registry, and the chain itself, made of every {@code ToolMiddleware}, {@code ToolInterceptor} and
 * {@code ToolCallObserver} bean of the context.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(AgentMiddlewareProperties.class)
public final class AgentMiddlewareAutoConfiguration {

	@Bean
	static AgentToolBeanPostProcessor agentToolBeanPostProcessor(ObjectProvider<AgentToolRegistry> registry) {
		return new AgentToolBeanPostProcessor(registry::getObject);
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
	ToolPipelineFactory toolPipelineFactory(ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<ToolCallObservers> observers) {
		return new ToolPipelineFactory(() -> ChainBeans.ordered(beanFactory), observers::getIfAvailable);
	}

	@Bean
	@ConditionalOnMissingBean
	AgentToolRegistry agentToolRegistry(ToolPipelineFactory pipelineFactory, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<ToolNameReferences> nameReferences, AgentMiddlewareProperties properties) {
		AgentMiddlewareProperties.Arguments arguments = properties.getArguments();
		return new AgentToolRegistry(pipelineFactory, () -> jsonMapper.getIfAvailable(JsonMapper::new),
				new ArgumentLimits(arguments.getMaxPayloadChars(), arguments.getMaxDepth()),
				() -> nameReferences.orderedStream().toList(), properties.isFailOnUnknownTool());
	}

	@Bean
	@ConditionalOnMissingBean
	SecretRedactor secretRedactor(AgentMiddlewareProperties properties) {
		return SecretRedactor.of(properties.getRedaction().getSecretKeys());
	}

}
