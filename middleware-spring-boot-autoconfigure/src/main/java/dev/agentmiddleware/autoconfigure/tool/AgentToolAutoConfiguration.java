package dev.agentmiddleware.autoconfigure.tool;

import java.util.Map;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import jakarta.validation.Validator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of {@code @AgentTool} registration: the post-processor that wraps
 * tool beans in the middleware chain, the {@link AgentToolRegistry}, the per-tool chain
 * made of every {@code ToolMiddleware}, {@code ToolInterceptor} and
 * {@code ToolCallObserver} bean of the context, the session resolver and the startup
 * report.
 * <p>
 * It lives beside the code it configures so that the post-processor, the invoker and the
 * chain assembly stay package-private.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(AgentMiddlewareProperties.class)
public final class AgentToolAutoConfiguration {

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
			return (available != null) ? new BeanValidationArgumentValidator(available) : new ToolArgumentValidator() {

				@Override
				public void validate(RegisteredTool tool, Object target, Map<String, @Nullable Object> arguments) {
				}

				@Override
				public boolean checks(RegisteredTool tool, Object target) {
					return false;
				}

			};
		}

	}

}
