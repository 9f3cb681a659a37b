package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.spring.tool.AgentToolBeanPostProcessor;
import dev.agentmiddleware.spring.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.tool.BeanValidationArgumentValidator;
import dev.agentmiddleware.spring.tool.ChainBeans;
import dev.agentmiddleware.spring.tool.ToolArgumentValidator;
import dev.agentmiddleware.spring.tool.ToolCallSessionResolver;
import dev.agentmiddleware.spring.tool.ToolNameReferences;
import dev.agentmiddleware.spring.tool.ToolPipelineFactory;
import jakarta.validation.Validator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

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
	UnknownPropertiesCheck agentMiddlewareUnknownPropertiesCheck(Environment environment,
			ListableBeanFactory beanFactory) {
		return new UnknownPropertiesCheck(environment, beanFactory);
	}

	@Bean
	static AgentToolBeanPostProcessor agentToolBeanPostProcessor(ObjectProvider<AgentToolRegistry> registry,
			ObjectProvider<ToolCallSessionResolver> sessionResolver) {
		return new AgentToolBeanPostProcessor(registry::getObject,
				() -> sessionResolver.getIfAvailable(ToolCallSessionResolver::standard));
	}

	@Bean
	@ConditionalOnMissingBean
	ToolCallSessionResolver toolCallSessionResolver() {
		return ToolCallSessionResolver.standard();
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
			ObjectProvider<ToolArgumentValidator> argumentValidator, ObjectProvider<ToolNameReferences> nameReferences,
			AgentMiddlewareProperties properties) {
		AgentMiddlewareProperties.Arguments arguments = properties.getArguments();
		return new AgentToolRegistry(pipelineFactory, () -> jsonMapper.getIfAvailable(JsonMapper::new),
				new ArgumentLimits(arguments.getMaxPayloadChars(), arguments.getMaxDepth()),
				argumentValidator::getIfAvailable, () -> nameReferences.orderedStream().toList(),
				properties.isFailOnUnknownTool());
	}

	@Bean
	AgentToolStartupReport agentToolStartupReport(AgentToolRegistry registry) {
		return new AgentToolStartupReport(registry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Validator.class)
	static class BeanValidationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ToolArgumentValidator toolArgumentValidator(ObjectProvider<Validator> validator) {
			Validator available = validator.getIfAvailable();
			return (available != null) ? new BeanValidationArgumentValidator(available) : (tool, target, arguments) -> {
			};
		}

	}

	@Bean
	@ConditionalOnMissingBean
	SecretRedactor secretRedactor(AgentMiddlewareProperties properties) {
		return SecretRedactor.of(properties.getRedaction().getSecretKeys());
	}

}
