package dev.agentmiddleware.benchmarks;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.spring.ai.AgentToolCallbackProvider;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the small Spring contexts the benchmarks call into: the {@code @AgentTool} bean behind our auto-configuration,
 * with the given configuration classes and properties.
 */
final class BenchmarkContexts {

	private BenchmarkContexts() {
	}

	static AnnotationConfigApplicationContext start(Map<String, Object> properties, Class<?>... configurations) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
		context.registerBean(BenchmarkTools.class);
		context.register(configurations);
		context.register(AgentMiddlewareAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class);
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

}
