package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.ErrorRecoveryMiddleware;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnknownToolException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class AgentChatClientTests {

	private static final String TODOS = "{\"todos\":[{\"id\":\"1\",\"text\":\"Check the time\",\"status\":\"in_progress\"},"
			+ "{\"id\":\"2\",\"text\":\"Report\",\"status\":\"pending\"}]}";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentChatClientAutoConfiguration.class, ToolCallingAutoConfiguration.class,
				ChatClientAutoConfiguration.class))
		.withUserConfiguration(RecordingConfiguration.class);

	@Test
	void hooksRunOncePerLoopIterationInOrderOnTheCallPathAndTodosPersistForTheConversation() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "write_todos", TODOS)),
				toolCalls(call("c2", "current_time", "{}")), text("It is noon; todos written."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			String answer = chatClient(context).prompt("Plan and check the time")
				.tools(context.getBean(ClockTools.class))
				.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, "conversation-1"))
				.call()
				.content();
			assertThat(answer).isEqualTo("It is noon; todos written.");
			assertHooksAndTodos(context, "conversation-1");
		});
	}

	@Test
	void hooksRunOncePerLoopIterationInOrderOnTheStreamPath() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "write_todos", TODOS)),
				toolCalls(call("c2", "current_time", "{}")), text("It is noon; todos written."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			List<String> chunks = chatClient(context).prompt("Plan and check the time")
				.tools(context.getBean(ClockTools.class))
				.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, "conversation-2"))
				.stream()
				.content()
				.collectList()
				.block();
			assertThat(String.join("", chunks)).isEqualTo("It is noon; todos written.");
			assertHooksAndTodos(context, "conversation-2");
		});
	}

	private void assertHooksAndTodos(AssertableApplicationContext context, String conversation) {
		assertThat(context.getBean(HookRecorder.class).hooks).containsExactly(conversation + " before#1",
				conversation + " after#1 write_todos", conversation + " before#2",
				conversation + " after#2 current_time", conversation + " before#3", conversation + " after#3");
		assertThat(context.getBean(ThreadStore.class).load(conversation).get("todos"))
			.isEqualTo(List.of(Map.of("id", "1", "text", "Check the time", "status", "in_progress"),
					Map.of("id", "2", "text", "Report", "status", "pending")));
		List<ToolInvocation> chain = context.getBean(ChainRecorder.class).calls;
		assertThat(chain).extracting(ToolInvocation::toolName).containsExactly("write_todos", "current_time");
		assertThat(chain).extracting(ToolInvocation::sessionId).containsOnly(conversation);
		assertThat(context.getBean(ClockTools.class).calls).as("the @Tool ran once").hasValue(1);
	}

	@Test
	void aToolBeansCallsPassOurChainExactlyOnceAndTheToolShowsInTheRegistry() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				toolCalls(call("c2", "current_time", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(GoverningToolCallingManager.class);
			chatClient(context).prompt("time twice").tools(context.getBean(ClockTools.class)).call().content();
			assertThat(context.getBean(ChainRecorder.class).calls).extracting(ToolInvocation::toolName)
				.containsExactly("current_time", "current_time");
			assertThat(context.getBean(ClockTools.class).calls).hasValue(2);
			assertThat(context.getBean(AgentToolRegistry.class).get("current_time").beanName())
				.startsWith("spring-ai:");
		});
	}

	@Test
	void afterAToolErrorTheNextIterationsInputCarriesTheErrorAndTheRecoveryHint() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "flaky_disk", "{}")),
				text("I will try something else."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chatClient(context).prompt("write the report").tools(context.getBean(ClockTools.class)).call().content();
			List<Message> secondInput = model.prompts.get(1).getInstructions();
			String last = secondInput.get(secondInput.size() - 1).getText();
			assertThat(last).contains("The tool 'flaky_disk' failed with java.lang.IllegalStateException: disk full")
				.contains("Stack trace (truncated):")
				.endsWith(ErrorRecoveryMiddleware.HINT);
			assertThat(model.prompts.get(0).getInstructions())
				.noneMatch((message) -> String.valueOf(message.getText()).contains(ErrorRecoveryMiddleware.HINT));
		});
	}

	@Test
	void aCallOfAnUnknownToolIsAnsweredToTheModelAsAToolErrorAndTheLoopGoesOn() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "get_wether", "{\"city\":\"Lisbon\"}")),
				text("I have no weather tool; it is noon, though."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			String answer = chatClient(context).prompt("weather?")
				.tools(context.getBean(ClockTools.class))
				.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, "typo-1"))
				.call()
				.content();
			assertThat(answer).isEqualTo("I have no weather tool; it is noon, though.");
			List<Message> secondInput = model.prompts.get(1).getInstructions();
			ToolResponseMessage toolAnswer = (ToolResponseMessage) secondInput.get(secondInput.size() - 2);
			assertThat(toolAnswer.getResponses()).singleElement().satisfies((response) -> {
				assertThat(response.id()).isEqualTo("c1");
				assertThat(response.name()).isEqualTo("get_wether");
				assertThat(response.responseData()).isEqualTo("No tool named 'get_wether'; known tools: current_time, "
						+ "flaky_disk, read_todos, update_todo, write_todos");
			});
			assertThat(secondInput.get(secondInput.size() - 1).getText()).as("error recovery saw it")
				.startsWith("The tool 'get_wether' failed with dev.agentmiddleware.tool.UnknownToolException: "
						+ "No tool named 'get_wether'")
				.endsWith(ErrorRecoveryMiddleware.HINT);
			assertThat(context.getBean(HookRecorder.class).hooks).containsExactly("typo-1 before#1",
					"typo-1 after#1 get_wether", "typo-1 before#2", "typo-1 after#2");
			assertThat(context.getBean(RecordingToolCallObserver.class).records()).singleElement()
				.satisfies((record) -> {
					assertThat(record.outcome()).isEqualTo(CallOutcome.UNKNOWN_TOOL);
					assertThat(record.invocation().toolName()).isEqualTo(AgentToolRegistry.UNKNOWN_TOOL_NAME);
					assertThat(record.invocation().sessionId()).isEqualTo("typo-1");
					assertThat(record.error()).isInstanceOfSatisfying(UnknownToolException.class,
							(error) -> assertThat(error.toolName()).isEqualTo("get_wether"));
				});
			assertThat(context.getBean(ChainRecorder.class).calls).as("no policy middleware sees it").isEmpty();
			assertThat(context.getBean(AgentToolRegistry.class).find("get_wether")).isEmpty();
		});
	}

	@Test
	void onTheStreamPathACallOfAnUnknownToolIsAnsweredToTheModelToo() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "get_wether", "{}")), text("sorry"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			List<String> chunks = chatClient(context).prompt("weather?")
				.tools(context.getBean(ClockTools.class))
				.stream()
				.content()
				.collectList()
				.block();
			assertThat(String.join("", chunks)).isEqualTo("sorry");
			List<Message> secondInput = model.prompts.get(1).getInstructions();
			ToolResponseMessage toolAnswer = (ToolResponseMessage) secondInput.get(secondInput.size() - 2);
			assertThat(toolAnswer.getResponses()).singleElement()
				.extracting(ToolResponseMessage.ToolResponse::responseData)
				.asString()
				.startsWith("No tool named 'get_wether'; known tools: current_time");
			assertThat(context.getBean(RecordingToolCallObserver.class).records()).extracting(ToolCallRecord::outcome)
				.containsExactly(CallOutcome.UNKNOWN_TOOL);
		});
	}

	@Test
	void theLoopGuardCountsCallsOfAnUnknownToolLikeAnyOther() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "get_wether", "{}")),
				toolCalls(call("c2", "get_wether", "{}")), text("giving up"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.loop-guard.max-repeated-calls=2")
			.run((context) -> {
				chatClient(context).prompt("weather?").tools(context.getBean(ClockTools.class)).call().content();
				List<Message> thirdInput = model.prompts.get(2).getInstructions();
				ToolResponseMessage answer = (ToolResponseMessage) thirdInput.get(thirdInput.size() - 1);
				assertThat(answer.getResponses()).singleElement()
					.satisfies((response) -> assertThat(response.responseData())
						.startsWith("Not run: you called 'get_wether' with the same arguments 2 times"));
				assertThat(context.getBean(RecordingToolCallObserver.class).records()).hasSize(1);
			});
	}

	@Test
	void callsOfAnUnknownToolAreCountedUnderOneFixedToolTagWithTheOutcomeUnknownTool() {
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "get_wether", "{}"), call("c2", "made_up_1", "{}")), text("sorry"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withConfiguration(AutoConfigurations.of(ToolObservationAutoConfiguration.class,
					ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				chatClient(context).prompt("weather?").tools(context.getBean(ClockTools.class)).call().content();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("agent.tool.call")
					.tag("agent.tool.name", AgentToolRegistry.UNKNOWN_TOOL_NAME)
					.tag("agent.tool.outcome", "unknown_tool")
					.timer()
					.count()).isEqualTo(2);
				assertThat(meters.find("agent.tool.call").tag("agent.tool.name", "get_wether").timer()).isNull();
			});
	}

	@Test
	void aModelWhoseOptionsCannotCarryToolsGetsOneWarningNamingTheFix(CapturedOutput output) {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				toolCalls(call("c2", "current_time", "{}"))) {

			@Override
			public ChatOptions getOptions() {
				return ChatOptions.builder().model("plain").build();
			}

		};
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			ChatClient client = chatClient(context);
			assertThat(client.prompt("time").call().content()).isEmpty();
			assertThat(client.prompt("time again").call().content()).isEmpty();
			assertThat(context.getBean(ClockTools.class).calls).hasValue(0);
		});
		String warning = "The chat model's options (" + ChatOptions.builder().build().getClass().getName()
				+ ") are not ToolCallingChatOptions";
		assertThat(output.getOut().lines().filter((line) -> line.contains(warning))).singleElement()
			.asString()
			.contains("WARN")
			.contains("spring-ai-starter-model-openai")
			.contains("ToolCallingChatOptions.builder().build()");
	}

	@Test
	void aPersonsDenialReachesTheModelAsTwoSentencesAndErrorRecoveryLeavesItAlone() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "flaky_disk", "{}")),
				text("I will not write it."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withConfiguration(AutoConfigurations.of(ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
					ApprovalWebAutoConfiguration.class, McpApprovalAutoConfiguration.class))
			.withBean(ApprovalCallback.class, () -> (request) -> ApprovalDecision.deny("alice", "keep the disk"))
			.run((context) -> {
				assertThat(
						chatClient(context).prompt("write").tools(context.getBean(ClockTools.class)).call().content())
					.isEqualTo("I will not write it.");
				List<Message> secondInput = model.prompts.get(1).getInstructions();
				assertThat(secondInput.get(secondInput.size() - 1)).as("no recovery message after the tool answer")
					.isInstanceOfSatisfying(ToolResponseMessage.class,
							(answer) -> assertThat(answer.getResponses()).singleElement()
								.extracting(ToolResponseMessage.ToolResponse::responseData)
								.isEqualTo("Call of tool 'flaky_disk' was denied by approval: alice denied it: keep "
										+ "the disk. Do not retry this call unless the user asks you to."));
				assertThat(secondInput)
					.noneMatch((message) -> String.valueOf(message.getText()).contains(ErrorRecoveryMiddleware.HINT));
			});
	}

	@Test
	void aRepeatedIdenticalCallIsAnsweredInsteadOfRun() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{\"zone\":null}")),
				toolCalls(call("c2", "current_time", "{ \"zone\" : null }")),
				toolCalls(call("c3", "current_time", "{\"zone\":null}")), text("ok"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.loop-guard.max-repeated-calls=3")
			.run((context) -> {
				chatClient(context).prompt("time").tools(context.getBean(ClockTools.class)).call().content();
				assertThat(context.getBean(ClockTools.class).calls).hasValue(2);
				List<Message> fourthInput = model.prompts.get(3).getInstructions();
				ToolResponseMessage answer = (ToolResponseMessage) fourthInput.get(fourthInput.size() - 1);
				assertThat(answer.getResponses()).singleElement().satisfies((response) -> {
					assertThat(response.id()).isEqualTo("c3");
					assertThat(response.responseData())
						.startsWith("Not run: you called 'current_time' with the same " + "arguments 3 times");
				});
			});
	}

	@Test
	void theIterationLimitAnswersEveryPendingCallAndEndsTheRun() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				toolCalls(call("c2", "current_time", "{\"zone\":\"UTC\"}"), call("c3", "read_todos", "{}")));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.loop-guard.max-iterations=2")
			.run((context) -> {
				String answer = chatClient(context).prompt("loop")
					.tools(context.getBean(ClockTools.class))
					.call()
					.content();
				assertThat(model.prompts).hasSize(2);
				assertThat(answer).contains("limit of 2 iterations");
				assertThat(context.getBean(ChainRecorder.class).calls).hasSize(1);
				assertThat(context.getBean(HookRecorder.class).hooks).last()
					.asString()
					.startsWith("run-")
					.contains("after#2");
			});
	}

	@Test
	void theAdvisorIsSuppliedThroughItsBuilderAndBuiltInsCanBeSwitchedOff() {
		this.contextRunner.withBean(ScriptedChatModel.class, () -> new ScriptedChatModel())
			.withPropertyValues("agent.middleware.todo.enabled=false", "agent.middleware.error-recovery.enabled=false")
			.run((context) -> {
				assertThat(context).hasSingleBean(AgentToolCallingAdvisor.Builder.class)
					.doesNotHaveBean(ErrorRecoveryMiddleware.class);
				assertThat(context.getBean(AgentToolRegistry.class).find("write_todos")).isEmpty();
			});
	}

	@Test
	void switchingTheDecoratorOffLeavesToolBeansOutsideTheChain() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.spring-ai.tool-calling-manager.enabled=false")
			.run((context) -> {
				assertThat(context.getBean(ToolCallingManager.class))
					.isNotInstanceOf(GoverningToolCallingManager.class);
				chatClient(context).prompt("time").tools(context.getBean(ClockTools.class)).call().content();
				assertThat(context.getBean(ClockTools.class).calls).hasValue(1);
				assertThat(context.getBean(ChainRecorder.class).calls).isEmpty();
				assertThat(context.getBean(AgentToolRegistry.class).find("current_time")).isEmpty();
			});
	}

	@Test
	void switchingTheChatClientIntegrationOffLeavesTheAutoConfiguredBuilderAlone() {
		ScriptedChatModel model = new ScriptedChatModel(text("plain"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.spring-ai.chat-client.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AgentToolCallingAdvisor.Builder.class);
				assertThat(chatClient(context).prompt("hi").call().content()).isEqualTo("plain");
				assertThat(context.getBean(HookRecorder.class).hooks).isEmpty();
				ToolCallingChatOptions options = (ToolCallingChatOptions) model.prompts.get(0).getOptions();
				assertThat(options.getToolCallbacks()).isNullOrEmpty();
			});
	}

	@Test
	void aHandBuiltClientGetsTheSameThroughTheAutoConfiguredAdvisorBuilder() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "write_todos", TODOS)),
				toolCalls(call("c2", "current_time", "{}")), text("done"));
		this.contextRunner.run((context) -> {
			ChatClient client = ChatClient
				.builder(model, ObservationRegistry.NOOP, null, null,
						context.getBean(AgentToolCallingAdvisor.Builder.class))
				.defaultToolCallbacks(context.getBean(AgentToolCallbackProvider.class))
				.build();
			client.prompt("plan")
				.tools(context.getBean(ClockTools.class))
				.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, "hand-built"))
				.call()
				.content();
			assertHooksAndTodos(context, "hand-built");
		});
	}

	private static ChatClient chatClient(AssertableApplicationContext context) {
		return context.getBean(ChatClient.Builder.class).build();
	}

	static class ClockTools {

		final AtomicInteger calls = new AtomicInteger();

		@Tool(name = "current_time", description = "The current time")
		String currentTime(@ToolParam(required = false, description = "Time zone") String zone) {
			this.calls.incrementAndGet();
			return "12:00";
		}

		@Tool(name = "flaky_disk", description = "Writes to a full disk")
		String flakyDisk() {
			throw new IllegalStateException("disk full");
		}

	}

	static class HookRecorder implements AgentMiddleware {

		final List<String> hooks = new CopyOnWriteArrayList<>();

		@Override
		public String name() {
			return "hook-recorder";
		}

		@Override
		public void beforeIteration(IterationContext context) {
			this.hooks.add(context.threadId() + " before#" + context.iteration());
		}

		@Override
		public void afterIteration(IterationContext context, IterationResult result) {
			String tools = String.join(",", result.events().stream().map((event) -> event.toolName()).toList());
			this.hooks.add((context.threadId() + " after#" + context.iteration() + " " + tools).strip());
		}

	}

	static class ChainRecorder {

		final List<ToolInvocation> calls = new CopyOnWriteArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingConfiguration {

		@Bean
		ClockTools clockTools() {
			return new ClockTools();
		}

		@Bean
		HookRecorder hookRecorder() {
			return new HookRecorder();
		}

		@Bean
		RecordingToolCallObserver recordingObserver() {
			return new RecordingToolCallObserver();
		}

		@Bean
		ChainRecorder chainRecorder() {
			return new ChainRecorder();
		}

		@Bean
		ToolMiddleware chainRecordingMiddleware(ChainRecorder recorder) {
			return ToolMiddleware.named("chain-recorder", (tool, next) -> (invocation) -> {
				recorder.calls.add(invocation);
				return next.handle(invocation);
			});
		}

	}

}
