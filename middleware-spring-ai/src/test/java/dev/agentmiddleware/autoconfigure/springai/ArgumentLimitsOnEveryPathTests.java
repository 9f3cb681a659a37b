package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code agent.middleware.arguments.max-payload-chars} and {@code max-depth} hold on
 * every path a call can take into a tool: a {@code ChatClient} turn, a Java caller with
 * JSON text, and a Java caller with parsed arguments (the way an MCP {@code tools/call}
 * arrives); the refusal names the limit and never echoes the input. (The MCP path over
 * HTTP is shown by the sample's {@code ArgumentLimitsMcpIntegrationTests}.)
 */
class ArgumentLimitsOnEveryPathTests {

	private static final String HUGE = "x".repeat(5_000);

	private static final String HUGE_JSON = "{\"note\":[\"" + HUGE + "\"]}";

	private static final String DEEP_JSON = "{\"note\":[[[[\"x\"]]]]}";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
						AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
						ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withBean(NoteTools.class)
		.withPropertyValues("agent.middleware.arguments.max-payload-chars=1000",
				"agent.middleware.arguments.max-depth=3");

	@Test
	void chatClientPathRefusesOversizedAndTooDeepArgumentsWithoutRunningTheTool() {
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "remember", HUGE_JSON), call("c2", "remember", DEEP_JSON)), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			context.getBean(ChatClient.Builder.class).build().prompt("remember").call().content();
			List<Message> secondInput = model.prompts.get(1).getInstructions();
			ToolResponseMessage answers = (ToolResponseMessage) secondInput.get(secondInput.size() - 1);
			assertThat(answers.getResponses()).hasSize(2);
			assertThat(answers.getResponses().get(0).responseData()).contains("remember", "exceeds the limit of 1000")
				.doesNotContain("xxxxxxxxxx");
			assertThat(answers.getResponses().get(1).responseData()).contains("'note'", "nested deeper than 3 levels");
			assertThat(context.getBean(NoteTools.class).notes()).isZero();
		});
	}

	@Test
	void javaJsonPathRefusesOversizedAndTooDeepArguments() {
		this.contextRunner.run((context) -> {
			RegisteredTool remember = context.getBean(AgentToolRegistry.class).get("remember");
			assertRefused(context, () -> remember.pipeline().call(remember.unboundInvocation(HUGE_JSON).build()),
					"payload of 5013 characters exceeds the limit of 1000");
			assertRefused(context, () -> remember.pipeline().call(remember.unboundInvocation(DEEP_JSON).build()),
					"parameter 'note': nested deeper than 3 levels");
		});
	}

	@Test
	void parsedArgumentsPathAsMcpUsesItRefusesOversizedAndTooDeepArguments() {
		this.contextRunner.run((context) -> {
			RegisteredTool remember = context.getBean(AgentToolRegistry.class).get("remember");
			assertRefused(context,
					() -> remember.pipeline().call(remember.unboundInvocation(Map.of("note", List.of(HUGE))).build()),
					"payload exceeds the limit of 1000 characters");
			assertRefused(context, () -> remember.pipeline()
				.call(remember.unboundInvocation(Map.of("note", List.of(List.of(List.of(List.of("x")))))).build()),
					"parameter 'note': nested deeper than 3 levels");
		});
	}

	private static void assertRefused(AssertableApplicationContext context, ThrowingCall call, String message) {
		InvalidToolArgumentsException refused = catchThrowableOfType(InvalidToolArgumentsException.class, call::run);
		assertThat(refused).as("refused").isNotNull();
		assertThat(refused.getMessage()).contains("'remember'", message)
			.doesNotContain("xxxxxxxxxx")
			.hasSizeLessThan(200);
		assertThat(context.getBean(NoteTools.class).notes()).isZero();
	}

	interface ThrowingCall {

		void run() throws Exception;

	}

	static class NoteTools {

		private final AtomicInteger notes = new AtomicInteger();

		public int notes() {
			return this.notes.get();
		}

		@AgentTool(description = "Remembers a note")
		public String remember(@AgentToolParam(description = "The note's parts") List<Object> note) {
			this.notes.incrementAndGet();
			return "remembered";
		}

	}

}
