package dev.agentmiddleware.autoconfigure.springai;

import java.util.Base64;
import java.util.List;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.results.ToolResultAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContent.Annotations;
import dev.agentmiddleware.tool.ToolContent.Audience;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

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
 * The {@code ChatClient} path of a rich result ({@link ToolContents}): the model reads
 * its texts as they are (guarded) and its binary parts described by type and size, never
 * their data in base64.
 */
class RichResultsChatClientTests {

	static final byte[] PNG = new byte[12_345];

	static {
		for (int i = 0; i < PNG.length; i++) {
			PNG[i] = (byte) (i * 31);
		}
	}

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolResultAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues("agent.middleware.todo.enabled=false")
		.withBean(ChartTools.class);

	@Test
	void theModelReadsTheTextsAndADescriptionOfTheImageNeverItsBase64() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "sales_chart", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			ChatClient chatClient = context.getBean(ChatClient.Builder.class).build();
			assertThat(chatClient.prompt("chart the sales").call().content()).isEqualTo("done");
			String answer = toolAnswers(model).get(0).responseData();
			assertThat(answer).isEqualTo("""
					Sales in March, token=[REDACTED]
					[image/png, 12,345 bytes]
					[resource link: march.csv, file:///reports/march.csv, text/csv]""");
			assertThat(answer).doesNotContain(Base64.getEncoder().encodeToString(PNG).substring(0, 16));
		});
	}

	@Test
	void aJavaCallerGetsTheRichResultItself() {
		this.contextRunner.run((context) -> {
			ToolContents chart = context.getBean(ChartTools.class).salesChart();
			assertThat(chart.parts()).hasSize(3);
			assertThat(chart.parts().get(0)).isEqualTo(ToolContent.text("Sales in March, token=[REDACTED]"));
			assertThat(((ToolContent.Image) chart.parts().get(1)).data()).isEqualTo(PNG);
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

	public static class ChartTools {

		@AgentTool(description = "Charts the sales", safety = SafetyLevel.SAFE, readOnly = true)
		public ToolContents salesChart() {
			return ToolContents.of(ToolContent.text("Sales in March, token=abc123"),
					ToolContent.image(PNG, "image/png").annotated(Annotations.forAudience(Audience.USER)),
					ToolContent.resourceLink("file:///reports/march.csv", "march.csv").withMimeType("text/csv"));
		}

	}

}
