package dev.agentmiddleware.autoconfigure.learning;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.learning.ErrorPatternStore;
import dev.agentmiddleware.learning.LearningObserver;
import dev.agentmiddleware.learning.LearningObserver.LearningObserverAdapter;
import dev.agentmiddleware.redaction.SecretRedactor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of learning from tool calls: an {@link ErrorPatternStore}, one
 * {@link LearningObserverAdapter} that feeds every {@link LearningObserver} bean from the
 * observer tier, a {@link ToolCallEvent} per call, and the learning section of the
 * {@code agentmiddleware} actuator endpoint.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = LearningProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(LearningProperties.class)
public final class LearningAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ErrorPatternStore errorPatternStore(LearningProperties properties, ObjectProvider<SecretRedactor> redactor) {
		return ErrorPatternStore.builder()
			.maxPatterns(properties.getMaxPatterns())
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults))
			.build();
	}

	@Bean
	@ConditionalOnMissingBean
	LearningObserverAdapter learningObserverAdapter(ObjectProvider<LearningObserver> observers) {
		return LearningObserverAdapter.of(observers.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = LearningProperties.PREFIX + ".publish-events", matchIfMissing = true)
	ToolCallEventPublisher toolCallEventPublisher(ApplicationEventPublisher applicationEventPublisher) {
		return new ToolCallEventPublisher(applicationEventPublisher);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class LearningEndpointConfiguration {

		@Bean
		LearningEndpointContributor learningEndpointContributor(ErrorPatternStore errorPatternStore) {
			return new LearningEndpointContributor(errorPatternStore);
		}

	}

}
