package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.results.ToolResultAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ChatClient} path of result guards: what a tool returns reaches the model
 * with its secrets redacted and cut to its limit, a structured result as valid JSON.
 */
class GuardedResultsChatClientTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolResultAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues("agent.middleware.todo.enabled=false", "agent.middleware.results.defaults.max-chars=500")
		.withBean(ServerTools.class);

	@Test
	void theModelReadsTheConfigWithoutItsPasswordAndTheLogCutToTheLimit() {
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "read_config", "{}"), call("c2", "tail_log", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			ChatClient chatClient = context.getBean(ChatClient.Builder.class).build();
			assertThat(chatClient.prompt("check the server").call().content()).isEqualTo("done");
			List<ToolResponseMessage.ToolResponse> answers = toolAnswers(model);
			assertThat(answers.get(0).responseData())
				.isEqualTo("server.port=8080\nmail.password=[REDACTED]\nproxy=http://[REDACTED]@proxy:3128\n");
			assertThat(answers.get(1).responseData()).hasSizeLessThanOrEqualTo(500)
				.startsWith("GET /health 200")
				.endsWith(" more characters; the tool's result is longer than its limit of 500 characters]");
		});
	}

	@Test
	void aStructuredResultReachesTheModelAsValidJsonWithItsSecretFieldsRedacted() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "server_status", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			context.getBean(ChatClient.Builder.class).build().prompt("status?").call().content();
			JsonNode status = JsonMapper.shared().readTree(toolAnswers(model).get(0).responseData());
			assertThat(status.get("host").stringValue()).isEqualTo("app-1");
			assertThat(status.get("adminToken").stringValue()).isEqualTo("[REDACTED]");
			assertThat(status.get("log").stringValue()).startsWith("GET /health 200").contains("… [cut: ");
		});
	}

	private static List<ToolResponseMessage.ToolResponse> toolAnswers(ScriptedChatModel model) {
		List<Message> secondInput = model.prompts.get(1).getInstructions();
		return secondInput.stream()
			.filter(ToolResponseMessage.class::isInstance)
			.map(ToolResponseMessage.class::cast)
			.reduce((first, second) -> second)
			.orElseThrow()
			.getResponses();
	}

	public static class ServerTools {

		@AgentTool(description = "Reads the server's configuration", readOnly = true)
		public String readConfig() {
			return "server.port=8080\nmail.password=hunter2\nproxy=http://ops:pr0xy-pass@proxy:3128\n";
		}

		@AgentTool(description = "Shows the server's log", readOnly = true)
		public String tailLog() {
			return "GET /health 200\n".repeat(1_000);
		}

		@AgentTool(description = "Shows the server's status", readOnly = true)
		public Status serverStatus() {
			return new Status("app-1", "t0k-ADMIN-991", "GET /health 200\n".repeat(1_000));
		}

	}

	public record Status(String host, String adminToken, String log) {
	}

}
