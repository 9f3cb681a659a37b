package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationRulesMiddleware;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizedTools;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.InvocationSource;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Agent-level middleware on Spring AI's {@code ChatClient} tool loop: the
 * {@link AgentToolCallingAdvisor} supplied through its builder (so the auto-configured
 * {@code ChatClient.Builder} uses it), a {@link ChatClientBuilderCustomizer} that
 * attaches every agent tool, the contributed tools and the advisor, and the one decorator
 * of the {@link ToolCallingManager} ({@code GoverningToolCallingManager}, applied once)
 * that offers the model only the tools its caller may call ({@link AuthorizedTools}),
 * puts tools registered the Spring AI way through the middleware chain and runs the
 * loop's side of each tool call.
 */
@AutoConfiguration(after = { AgentAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class },
		afterName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration",
		beforeName = "org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration")
@ConditionalOnClass({ ChatClient.class, ToolCallingAdvisor.class })
@ConditionalOnBean({ AgentRuns.class, AgentToolRegistry.class })
@EnableConfigurationProperties(AgentSpringAiProperties.class)
public final class AgentChatClientAutoConfiguration {

	@Bean
	@ConditionalOnBooleanProperty(name = AgentSpringAiProperties.PREFIX + ".tool-calling-manager.enabled",
			matchIfMissing = true)
	static BeanPostProcessor governingToolCallingManagerPostProcessor(ObjectProvider<AgentToolRegistry> registry,
			ObjectProvider<ToolErrorFormatter> errorFormatter, ObjectProvider<AuthorizationMiddleware> authorization,
			ObjectProvider<AuthorizationRulesMiddleware> authorizationRules) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof ToolCallingManager manager && !(bean instanceof GoverningToolCallingManager)) {
					return new GoverningToolCallingManager(manager, registry.getObject(), errorFormatter.getObject(),
							new AuthorizedTools(registry::getObject, authorization::getIfAvailable,
									authorizationRules::getIfAvailable, InvocationSource.SPRING_AI));
				}
				return bean;
			}

		};
	}

	@Bean
	@ConditionalOnMissingBean(ToolCallingAdvisor.Builder.class)
	@ConditionalOnBooleanProperty(name = AgentSpringAiProperties.PREFIX + ".chat-client.enabled", matchIfMissing = true)
	AgentToolCallingAdvisor.Builder agentToolCallingAdvisorBuilder(AgentRuns agentRuns,
			ObjectProvider<ToolCallingManager> toolCallingManager, AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter, ObjectProvider<AuthorizationMiddleware> authorization,
			ObjectProvider<AuthorizationRulesMiddleware> authorizationRules, AgentSpringAiProperties properties) {
		ToolCallingManager manager = toolCallingManager.getIfAvailable(() -> ToolCallingManager.builder().build());
		if (properties.getToolCallingManager().isEnabled() && !(manager instanceof GoverningToolCallingManager)) {
			manager = new GoverningToolCallingManager(manager, registry, errorFormatter,
					new AuthorizedTools(() -> registry, authorization::getIfAvailable,
							authorizationRules::getIfAvailable, InvocationSource.SPRING_AI));
		}
		return AgentToolCallingAdvisor.builder(agentRuns).toolCallingManager(manager);
	}

	@Bean
	@ConditionalOnBooleanProperty(name = AgentSpringAiProperties.PREFIX + ".chat-client.enabled", matchIfMissing = true)
	ChatClientBuilderCustomizer agentChatClientBuilderCustomizer(AgentToolCallbackProvider toolCallbacks,
			ObjectProvider<ToolCallingAdvisor.Builder<?>> advisorBuilder) {
		return (builder) -> {
			builder.defaultToolCallbacks(toolCallbacks);
			if (advisorBuilder.getIfAvailable() instanceof AgentToolCallingAdvisor.Builder agentBuilder) {
				builder.defaultAdvisors(agentBuilder.build());
			}
		};
	}

}
