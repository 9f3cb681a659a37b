package dev.agentmiddleware.benchmarks;

import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.observation.ObservationMiddleware.ToolCallMeterObservationHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.LoggerFactory;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the small Spring contexts the benchmarks call into: the {@code @AgentTool} bean
 * behind our auto-configuration, either bare or with the default stack of built-ins.
 */
final class BenchmarkContexts {

	/**
	 * The properties of the default stack: every built-in a sample configuration enables
	 * applies to the benchmark tools, the rate limit with a limit that is never reached,
	 * the call log at INFO with its logger off.
	 */
	static final Map<String, Object> DEFAULT_STACK_PROPERTIES = Map.of("agent.middleware.rate-limit.defaults.enabled",
			"true", "agent.middleware.rate-limit.defaults.limit-for-period", "2000000000",
			"agent.middleware.rate-limit.defaults.limit-refresh-period", "1s",
			"agent.middleware.cache.defaults.max-size", "1000");

	private BenchmarkContexts() {
	}

	static AnnotationConfigApplicationContext bare() {
		return start(Map.of(), BareConfiguration.class);
	}

	static AnnotationConfigApplicationContext defaultStack() {
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME)
			.setLevel(Level.OFF);
		return start(DEFAULT_STACK_PROPERTIES, DefaultStackConfiguration.class);
	}

	static AnnotationConfigApplicationContext startWith(Map<String, Object> properties) {
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME)
			.setLevel(Level.OFF);
		return start(properties, DefaultStackConfiguration.class);
	}

	private static AnnotationConfigApplicationContext start(Map<String, Object> properties, Class<?> configuration) {
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
			.setLevel(Level.WARN);
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
		context.registerBean(BenchmarkTools.class);
		context.register(configuration);
		context.refresh();
		return context;
	}

	static ToolCallback callback(AnnotationConfigApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("No tool " + name);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
			AgentToolSpringAiAutoConfiguration.class })
	static class BareConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
			AgentToolSpringAiAutoConfiguration.class, ToolObservationAutoConfiguration.class,
			ToolLoggingAutoConfiguration.class, ToolCacheAutoConfiguration.class, ToolRetryAutoConfiguration.class,
			ToolRateLimitAutoConfiguration.class })
	static class DefaultStackConfiguration {

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		// The meter handlers as Spring Boot's metrics auto-configuration groups them (the
		// first that supports a
		// context handles it), with the one our observation auto-configuration adds by
		// default: tool calls get a
		// timer without the long-task timer.
		@Bean
		ObservationRegistry observationRegistry(MeterRegistry meterRegistry) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig()
				.observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
						new ToolCallMeterObservationHandler(meterRegistry),
						new DefaultMeterObservationHandler(meterRegistry)));
			return registry;
		}

	}

}
