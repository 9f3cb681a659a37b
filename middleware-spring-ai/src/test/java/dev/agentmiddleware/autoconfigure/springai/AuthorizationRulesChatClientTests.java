package dev.agentmiddleware.autoconfigure.springai;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.authorization.ToolCallDecider;
import dev.agentmiddleware.authorization.ToolCallDecision;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ChatClient} path of authorization rules: the reason of a rule or decider
 * that refuses a call is what the model is told, the tool does not run, and a rule that
 * reads no arguments keeps the tool out of what the model is offered.
 */
class AuthorizationRulesChatClientTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AuthorizationAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues("agent.middleware.todo.enabled=false",
				"agent.middleware.authorization.tools.transfer.deny-when[0].expression=#args.amount > 1000 and "
						+ "!#principal.authorities.contains('ROLE_ADMIN')",
				"agent.middleware.authorization.tools.transfer.deny-when[0].reason=Only an admin may transfer more "
						+ "than 1,000.",
				"agent.middleware.authorization.tools.close-account.allow-when[0].expression=#source != 'SPRING_AI'",
				"agent.middleware.authorization.tools.close-account.allow-when[0].reason=Accounts are not closed from "
						+ "a chat.")
		.withBean(BankTools.class);

	@AfterEach
	void clearSecurityContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theReasonOfARefusingRuleIsWhatTheModelIsTold() {
		signIn("bob", "ROLE_CLERK");
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "transfer", "{\"to\":\"carol\",\"amount\":5000}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			assertThat(chatClient(context).prompt("pay carol").call().content()).isEqualTo("done");
			assertThat(toolAnswer(model)).isEqualTo("Call of tool 'transfer' is forbidden: Only an admin may transfer "
					+ "more than 1,000. Do not retry this call.");
			assertThat(context.getBean(BankTools.class).transfers()).isEmpty();
		});
	}

	@Test
	void aCallTheRulesAllowRuns() {
		signIn("alice", "ROLE_ADMIN");
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "transfer", "{\"to\":\"carol\",\"amount\":5000}")), text("done"));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chatClient(context).prompt("pay carol").call().content();
			assertThat(toolAnswer(model)).isEqualTo("sent 5000 to carol");
			assertThat(context.getBean(BankTools.class).transfers()).containsExactly("carol 5000");
		});
	}

	@Test
	void theReasonOfARefusingDeciderIsWhatTheModelIsTold() {
		signIn("alice", "ROLE_ADMIN");
		ScriptedChatModel model = new ScriptedChatModel(
				toolCalls(call("c1", "transfer", "{\"to\":\"mallory\",\"amount\":5}")), text("done"));
		ToolCallDecider sanctions = (call) -> "mallory".equals(call.argument("to"))
				? ToolCallDecision.deny("Mallory is on the sanctions list.") : ToolCallDecision.allow();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withBean(ToolCallDecider.class, () -> sanctions)
			.run((context) -> {
				chatClient(context).prompt("pay mallory").call().content();
				assertThat(toolAnswer(model)).isEqualTo("Call of tool 'transfer' is forbidden: Mallory is on the "
						+ "sanctions list. Do not retry this call.");
				assertThat(context.getBean(BankTools.class).transfers()).isEmpty();
			});
	}

	@Test
	void aToolARuleRefusesToThisSourceIsNotOfferedToTheModelAndACallOfItIsStillRefused() {
		signIn("alice", "ROLE_ADMIN");
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			chatClient(context).prompt("close account a-1").call().content();
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactly("transfer"));
			assertThat(toolAnswer(model)).isEqualTo("Call of tool 'close_account' is forbidden: Accounts are not "
					+ "closed from a chat. Do not retry this call.");
		});
	}

	private static void signIn(String name, String... authorities) {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(name, "n/a",
					AuthorityUtils.createAuthorityList(authorities)));
	}

	private static String toolAnswer(ScriptedChatModel model) {
		ToolResponseMessage answer = model.prompts.get(1)
			.getInstructions()
			.stream()
			.filter(ToolResponseMessage.class::isInstance)
			.map(ToolResponseMessage.class::cast)
			.reduce((first, second) -> second)
			.orElseThrow();
		return answer.getResponses().get(0).responseData();
	}

	private static ChatClient chatClient(AssertableApplicationContext context) {
		return context.getBean(ChatClient.Builder.class).build();
	}

	/**
	 * A chat model that asks the context's {@link ToolCallingManager} for the tool
	 * definitions of each request, as a Spring AI model module does, and calls
	 * {@code close_account} whatever it was offered.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ToolResolvingModelConfiguration {

		@Bean
		ScriptedChatModel chatModel(ToolCallingManager toolCallingManager) {
			return new ScriptedChatModel(toolCallingManager, toolCalls(call("c1", "close_account", "{\"id\":\"a-1\"}")),
					text("done"));
		}

	}

	public static class BankTools {

		private final List<String> transfers = new ArrayList<>();

		public List<String> transfers() {
			return this.transfers;
		}

		@AgentTool(description = "Transfers money", safety = SafetyLevel.SAFE)
		public String transfer(String to, long amount) {
			this.transfers.add(to + " " + amount);
			return "sent " + amount + " to " + to;
		}

		@AgentTool(description = "Closes an account", safety = SafetyLevel.SAFE)
		public String closeAccount(String id) {
			return "closed " + id;
		}

	}

}
