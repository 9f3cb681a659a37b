package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.RecordingMiddlewareConfiguration;
import dev.agentmiddleware.autoconfigure.RecordingMiddlewareConfiguration.Recorder;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class GovernedToolCallbackTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class))
		.withUserConfiguration(RecordingMiddlewareConfiguration.class);

	@Test
	void aToolMethodCallbackRunsTheChainExactlyOnceWithTheSessionFromTheToolContext() {
		this.contextRunner.run((context) -> {
			Clock clock = new Clock();
			ToolCallback governed = govern(context, ToolCallbacks.from(clock)[0]);
			String answer = governed.call("{\"zone\":\"UTC\"}",
					new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "conversation-1")));
			assertThat(answer).isEqualTo("\"12:00 UTC\"");
			assertThat(clock.calls).hasValue(1);
			List<ToolInvocation> calls = context.getBean(Recorder.class).calls;
			assertThat(calls).singleElement().satisfies((call) -> {
				assertThat(call.toolName()).isEqualTo("current_time");
				assertThat(call.sessionId()).isEqualTo("conversation-1");
				assertThat(call.source()).isEqualTo(InvocationSource.SPRING_AI);
				assertThat(call.arguments()).containsEntry("zone", "UTC");
			});
		});
	}

	@Test
	void theToolJoinsTheRegistryAsDangerousWithItsSchemaAndDescription() {
		this.contextRunner.run((context) -> {
			govern(context, ToolCallbacks.from(new Clock())[0]);
			RegisteredTool tool = context.getBean(AgentToolRegistry.class).get("current_time");
			ToolDescriptor descriptor = tool.descriptor();
			assertThat(descriptor.safety()).isEqualTo(SafetyLevel.DANGEROUS);
			assertThat(descriptor.readOnly()).isFalse();
			assertThat(descriptor.description()).isEqualTo("The current time in a zone");
			assertThat(descriptor.inputSchema()).contains("\"zone\"");
			assertThat(tool.beanName()).startsWith("spring-ai:");
			assertThat(tool.pipeline().layers()).containsExactly("recording", "current_time");
		});
	}

	@Test
	void governingIsIdempotentAndLeavesOurOwnCallbacksAlone() {
		this.contextRunner.withUserConfiguration(AgentToolConfiguration.class).run((context) -> {
			ToolCallback governed = govern(context, ToolCallbacks.from(new Clock())[0]);
			assertThat(govern(context, governed)).isSameAs(governed);
			ToolCallback ours = context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()[0];
			assertThat(govern(context, ours)).isSameAs(ours);
		});
	}

	@Test
	void eachInstanceOfTheSameToolRunsItsOwnTargetThroughOneSharedPipeline() {
		this.contextRunner.run((context) -> {
			Clock first = new Clock();
			Clock second = new Clock();
			GovernedToolCallback one = (GovernedToolCallback) govern(context, ToolCallbacks.from(first)[0]);
			GovernedToolCallback two = (GovernedToolCallback) govern(context, ToolCallbacks.from(second)[0]);
			two.call("{\"zone\":\"CET\"}");
			assertThat(one.tool()).isSameAs(two.tool());
			assertThat(first.calls).hasValue(0);
			assertThat(second.calls).hasValue(1);
		});
	}

	@Test
	void badArgumentsGetAClearMessageAndNeverReachTheChainOrTheDelegate() {
		this.contextRunner.run((context) -> {
			Clock clock = new Clock();
			ToolCallback governed = govern(context, ToolCallbacks.from(clock)[0]);
			assertThat(governed.call("{\"zone\":\"UTC\",\"color\":\"red\"}")).contains("current_time")
				.contains("'color'");
			assertThat(governed.call("{\"zone\":")).contains("current_time").contains("malformed JSON");
			assertThat(governed.call("{}")).contains("'zone'").contains("required");
			assertThat(context.getBean(Recorder.class).calls).isEmpty();
			assertThat(clock.calls).hasValue(0);
		});
	}

	@Test
	void aNameTakenByAnAgentToolIsRefusedNamingBothOwners() {
		this.contextRunner.withUserConfiguration(ClashingAgentToolConfiguration.class).run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			ToolCallback clash = ToolCallbacks.from(new ClashingClock())[0];
			assertThatIllegalStateException().isThrownBy(() -> govern(context, clash))
				.withMessageContaining("Duplicate tool name 'current_time'")
				.withMessageContaining("'agentClock'")
				.withMessageContaining("spring-ai:");
		});
	}

	@Test
	void aFailureOfTheDelegateBecomesTheFormattersText() {
		this.contextRunner.run((context) -> {
			ToolCallback governed = govern(context, ToolCallbacks.from(new BrokenClock())[0]);
			String answer = governed.call("{}");
			assertThat(answer).contains("broken_clock").doesNotContain("\tat ");
			assertThat(context.getBean(Recorder.class).calls).hasSize(1);
		});
	}

	@Test
	void theDelegateGetsTheModelsJsonAsSentWhenNoLayerChangedTheArguments() {
		this.contextRunner.run((context) -> {
			InputRecordingCallback delegate = new InputRecordingCallback("echo_input");
			ToolCallback governed = govern(context, delegate);
			String sent = "{ \"zone\" :  \"UTC\" }";
			governed.call(sent);
			assertThat(delegate.inputs).containsExactly(sent);
			assertThat(context.getBean(Recorder.class).calls).singleElement()
				.satisfies((call) -> assertThat(call.arguments()).containsEntry("zone", "UTC"));
		});
	}

	@Test
	void theDelegateGetsTheRewrittenArgumentsAsJsonWhenALayerChangedThem() {
		this.contextRunner
			.withBean("rewriting", ToolMiddleware.class,
					() -> ToolMiddleware.named("rewriting",
							(tool, next) -> (invocation) -> next.handle(invocation.withArgument("zone", "CET"))))
			.run((context) -> {
				InputRecordingCallback delegate = new InputRecordingCallback("echo_input");
				govern(context, delegate).call("{ \"zone\" :  \"UTC\" }");
				assertThat(delegate.inputs).containsExactly("{\"zone\":\"CET\"}");
			});
	}

	private static ToolCallback govern(ApplicationContext context, ToolCallback callback) {
		return GovernedToolCallback.govern(callback, context.getBean(AgentToolRegistry.class),
				context.getBean(ToolErrorFormatter.class));
	}

	static final class InputRecordingCallback implements ToolCallback {

		final List<String> inputs = new CopyOnWriteArrayList<>();

		private final ToolDefinition definition;

		InputRecordingCallback(String name) {
			this.definition = ToolDefinition.builder()
				.name(name)
				.description("Records its input")
				.inputSchema("{\"type\":\"object\",\"properties\":{\"zone\":{\"type\":\"string\"}}}")
				.build();
		}

		@Override
		public ToolDefinition getToolDefinition() {
			return this.definition;
		}

		@Override
		public String call(String toolInput) {
			this.inputs.add(toolInput);
			return "ok";
		}

	}

	static class Clock {

		final AtomicInteger calls = new AtomicInteger();

		@Tool(name = "current_time", description = "The current time in a zone")
		String currentTime(@ToolParam(description = "Time zone") String zone) {
			this.calls.incrementAndGet();
			return "12:00 " + zone;
		}

	}

	static class ClashingClock {

		@Tool(name = "current_time", description = "Another clock")
		String currentTime() {
			return "now";
		}

	}

	static class BrokenClock {

		@Tool(name = "broken_clock", description = "Always fails")
		String brokenClock() {
			throw new IllegalStateException("gears stuck");
		}

	}

	public static class AgentClock {

		@AgentTool(name = "agent_clock", description = "Agent clock")
		public String now() {
			return "now";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AgentToolConfiguration {

		@Bean
		AgentClock agentClock() {
			return new AgentClock();
		}

	}

	public static class ClashingAgentClock {

		@AgentTool(name = "current_time", description = "Agent clock")
		public String now() {
			return "now";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClashingAgentToolConfiguration {

		@Bean
		ClashingAgentClock agentClock() {
			return new ClashingAgentClock();
		}

	}

}
