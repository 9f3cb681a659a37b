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
 * The {@code ChatClient} path of the personal-data result guard: the model reads a tool's
 * result with its email addresses, phone numbers, card numbers and IBANs masked, only for
 * the tool it is switched on for.
 */
class PersonalDataChatClientTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolResultAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues("agent.middleware.todo.enabled=false", "agent.middleware.results.phone-region=DE",
				"agent.middleware.results.tools.lookup-customer.personal-data.enabled=true")
		.withBean(CrmTools.class);

	@Test
	void theModelReadsTheCustomerWithItsPersonalDataMaskedAndOtherToolsUntouched() {
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "lookup_customer", "{}"), call("c2", "support_hotline", "{}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			ChatClient chatClient = context.getBean(ChatClient.Builder.class).build();
			assertThat(chatClient.prompt("who is customer 7?").call().content()).isEqualTo("done");
			List<ToolResponseMessage.ToolResponse> answers = toolAnswers(model);
			JsonNode customer = JsonMapper.shared().readTree(answers.get(0).responseData());
			assertThat(customer.get("name").stringValue()).isEqualTo("Alice Smith");
			assertThat(customer.get("email").stringValue()).isEqualTo("[EMAIL]");
			assertThat(customer.get("phone").stringValue()).isEqualTo("[PHONE]");
			assertThat(customer.get("card").stringValue()).isEqualTo("[CARD ending 1111]");
			assertThat(customer.get("iban").stringValue()).isEqualTo("[IBAN]");
			assertThat(customer.get("notes").stringValue())
				.isEqualTo("order 4711-0815 of 2024-11-05; reference 4111 1111 1111 1112");
			assertThat(answers.get(0).responseData()).doesNotContain("alice@", "1234567", "DE89");
			assertThat(answers.get(1).responseData()).isEqualTo("Call us on 030 9876543");
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

	public static class CrmTools {

		@AgentTool(description = "Looks up a customer", readOnly = true)
		public Customer lookupCustomer() {
			return new Customer("Alice Smith", "alice@example.com", "030 1234567", "4111 1111 1111 1111",
					"DE89 3704 0044 0532 0130 00", "order 4711-0815 of 2024-11-05; reference 4111 1111 1111 1112");
		}

		@AgentTool(description = "Tells the support hotline", readOnly = true)
		public String supportHotline() {
			return "Call us on 030 9876543";
		}

	}

	public record Customer(String name, String email, String phone, String card, String iban, String notes) {
	}

}
