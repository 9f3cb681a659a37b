package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import dev.agentmiddleware.tool.CallOutcome;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool calls of a {@code ChatClient} turn are joined to their results, failures and
 * records by the model's tool-call id, and the agent run reaches the tools through the
 * tool context alone.
 */
class ToolCallIdJoinTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentChatClientAutoConfiguration.class, ToolCallingAutoConfiguration.class,
				ChatClientAutoConfiguration.class))
		.withUserConfiguration(RecordingConfiguration.class);

	@Test
	void callsOfTheSameToolInOneReplyGetTheirOwnResultsFailuresAndRecordsById() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("call-b", "echo", "{\"text\":\"boom\"}"),
				call("call-a", "echo", "{\"text\":\"one\"}"), call("call-c", "echo", "{\"text\":\"three\"}")),
				text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chat(context, "join-1");
			List<Message> secondInput = model.prompts.get(1).getInstructions();
			ToolResponseMessage answers = (ToolResponseMessage) secondInput.get(secondInput.size() - 1);
			assertThat(answers.getResponses()).extracting(ToolResponseMessage.ToolResponse::id)
				.containsExactly("call-b", "call-a", "call-c");
			Map<String, String> byId = new HashMap<>();
			answers.getResponses().forEach((response) -> byId.put(response.id(), response.responseData()));
			assertThat(byId.get("call-a")).contains("one");
			assertThat(byId.get("call-c")).contains("three");
			assertThat(byId.get("call-b")).contains("echo").contains("cannot echo boom");

			List<AgentEvent> events = context.getBean(EventRecorder.class).events;
			assertThat(events).extracting(AgentEvent::callId).containsExactly("call-b", "call-a", "call-c");
			assertThat(events).extracting(AgentEvent::kind)
				.containsExactly(AgentEvent.Kind.TOOL_ERROR, AgentEvent.Kind.TOOL_RESULT, AgentEvent.Kind.TOOL_RESULT);
			assertThat(events.get(0).error()).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("cannot echo boom");

			List<ToolCallRecord> records = context.getBean(RecordingToolCallObserver.class).records();
			assertThat(records).extracting((record) -> record.invocation().toolCallId())
				.containsExactly("call-b", "call-a", "call-c");
			assertThat(records).extracting(ToolCallRecord::outcome)
				.containsExactly(CallOutcome.FAILED, CallOutcome.SUCCEEDED, CallOutcome.SUCCEEDED);
		});
	}

	@Test
	void theToolContextCarriesTheRunItselfAndTheThreadOnlyUnderSpringAisConversationId() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "echo", "{\"text\":\"hi\"}")),
				text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chat(context, "thread-9");
			Map<String, Object> toolContext = context.getBean(EchoTools.class).contexts.get(0);
			assertThat(toolContext.get(AgentToolCallingAdvisor.RUN_KEY)).isInstanceOfSatisfying(AgentRun.class,
					(run) -> assertThat(run.threadId()).isEqualTo("thread-9"));
			assertThat(toolContext).containsEntry(ChatMemory.CONVERSATION_ID, "thread-9")
				.doesNotContainKey(AgentToolCallback.SESSION_ID_KEY)
				.doesNotContainKey("agent.run-id");
			assertThat(context.getBean(RecordingToolCallObserver.class).records()).singleElement()
				.satisfies((record) -> assertThat(record.invocation().sessionId()).isEqualTo("thread-9"));
		});
	}

	private static void chat(ApplicationContext context, String conversation) {
		context.getBean(ChatClient.Builder.class)
			.build()
			.prompt("echo")
			.tools(context.getBean(EchoTools.class))
			.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, conversation))
			.call()
			.content();
	}

	static class EchoTools {

		final List<Map<String, Object>> contexts = new CopyOnWriteArrayList<>();

		@Tool(name = "echo", description = "Echoes a text")
		String echo(@ToolParam(description = "The text") String text, ToolContext toolContext) {
			this.contexts.add(Map.copyOf(toolContext.getContext()));
			if (text.equals("boom")) {
				throw new IllegalArgumentException("cannot echo boom");
			}
			return "echo: " + text;
		}

	}

	static class EventRecorder implements AgentMiddleware {

		final List<AgentEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public String name() {
			return "event-recorder";
		}

		@Override
		public void afterIteration(IterationContext context, IterationResult result) {
			this.events.addAll(result.events());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingConfiguration {

		@Bean
		EchoTools echoTools() {
			return new EchoTools();
		}

		@Bean
		EventRecorder eventRecorder() {
			return new EventRecorder();
		}

		@Bean
		RecordingToolCallObserver recordingObserver() {
			return new RecordingToolCallObserver();
		}

	}

}
