package dev.agentmiddleware.autoconfigure.tool;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.AliasFor;

import static org.assertj.core.api.Assertions.assertThat;

class ComposedAgentToolTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolCacheAutoConfiguration.class))
		.withBean(OrderTools.class);

	@Test
	void aComposedAnnotationDeclaresAToolWithItsOwnDefaultsAndOverrides() {
		this.contextRunner.run((context) -> {
			ToolDescriptor descriptor = context.getBean(AgentToolRegistry.class).get("find_order").descriptor();
			assertThat(descriptor.readOnly()).isTrue();
			assertThat(descriptor.safety()).isEqualTo(SafetyLevel.SAFE);
			assertThat(descriptor.description()).isEqualTo("Finds an order by its id");
			assertThat(context.getBean(AgentToolRegistry.class).get("find_order").pipeline().layers())
				.containsExactly("cache", "find_order");
		});
	}

	@Test
	void directJavaCallsOfAComposedToolRunThroughItsChain() {
		this.contextRunner.run((context) -> {
			OrderTools tools = context.getBean(OrderTools.class);
			ToolCallScope.run("conversation-1", null, () -> {
				tools.findOrder("A-1");
				tools.findOrder("A-1");
			});
			assertThat(tools.runs()).isEqualTo(1);
		});
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@AgentTool(safety = SafetyLevel.SAFE, readOnly = true)
	@interface LookupTool {

		@AliasFor(annotation = AgentTool.class)
		String description() default "";

	}

	public static class OrderTools {

		private final AtomicInteger runs = new AtomicInteger();

		@LookupTool(description = "Finds an order by its id")
		public String findOrder(String id) {
			this.runs.incrementAndGet();
			return id;
		}

		public int runs() {
			return this.runs.get();
		}

	}

}
