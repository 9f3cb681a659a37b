package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.annotation.Tool;
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
 * The {@code ChatClient} path of per-tool authorization: the principal of a tool call is
 * the one the tool context names, else the {@code SecurityContext} of the thread that
 * calls the model; the model is offered only the tools that principal may call, and a
 * tool that requires authorities is refused, with a plain answer to the model, to a
 * caller without them (one the model calls anyway, for one).
 */
class AuthorizedChatClientTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AuthorizationAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				AgentAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues("agent.middleware.todo.enabled=false")
		.withBean(LedgerTools.class);

	@AfterEach
	void clearSecurityContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theSecurityContextOfTheCallingThreadCarriesTheAuthority() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("alice", "n/a",
					AuthorityUtils.createAuthorityList("SCOPE_ledger.write")));
		ScriptedChatModel model = closeBooksThenAnswer();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			assertThat(chatClient(context).prompt("close the books").call().content()).isEqualTo("done");
			assertThat(toolAnswer(model)).isEqualTo("books closed");
			assertThat(context.getBean(LedgerTools.class).closings()).isEqualTo(1);
		});
	}

	@Test
	void withoutTheAuthorityTheModelIsToldPlainlyAndTheToolDoesNotRun() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("bob", "n/a",
					AuthorityUtils.createAuthorityList("SCOPE_ledger.read")));
		ScriptedChatModel model = closeBooksThenAnswer();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chatClient(context).prompt("close the books").call().content();
			assertThat(toolAnswer(model)).isEqualTo("Tool 'close_books' requires authority SCOPE_ledger.write, which "
					+ "the caller does not have. Do not retry this call.");
			assertThat(context.getBean(LedgerTools.class).closings()).isZero();
		});
	}

	@Test
	void anUnauthenticatedTurnIsRefusedATool() {
		ScriptedChatModel model = closeBooksThenAnswer();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chatClient(context).prompt("close the books").call().content();
			assertThat(toolAnswer(model)).isEqualTo("Tool 'close_books' requires authority SCOPE_ledger.write, and the "
					+ "caller is not authenticated. Do not retry this call.");
			assertThat(context.getBean(LedgerTools.class).closings()).isZero();
		});
	}

	@Test
	void aPrincipalInTheToolContextTakesPrecedenceOverTheSecurityContext() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("bob", "n/a",
					AuthorityUtils.createAuthorityList("SCOPE_ledger.read")));
		ToolPrincipal job = ToolPrincipal.of("closing-job", Set.of("SCOPE_ledger.write"));
		ScriptedChatModel model = closeBooksThenAnswer();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model).run((context) -> {
			chatClient(context).prompt("close the books")
				.toolContext(Map.of(AgentToolCallback.PRINCIPAL_KEY, job))
				.call()
				.content();
			assertThat(toolAnswer(model)).isEqualTo("books closed");
		});
		ScriptedChatModel byName = closeBooksThenAnswer();
		this.contextRunner.withBean(ScriptedChatModel.class, () -> byName).run((context) -> {
			chatClient(context).prompt("close the books")
				.toolContext(Map.of(AgentToolCallback.PRINCIPAL_KEY, "closing-job"))
				.call()
				.content();
			assertThat(toolAnswer(byName)).as("a name alone holds no authority")
				.startsWith("Tool 'close_books' requires authority SCOPE_ledger.write, which the caller does not have");
		});
	}

	@Test
	void theModelIsOfferedTheToolsWhoseAuthoritiesTheCallerHolds() {
		signIn("alice", "SCOPE_ledger.write");
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			chatClient(context).prompt("close the books").call().content();
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactlyInAnyOrder("close_books", "ledger_balance"));
			assertThat(toolAnswer(model)).isEqualTo("books closed");
		});
	}

	@Test
	void theModelIsNotOfferedAToolTheCallerMayNotCallAndACallOfItIsStillRefused() {
		signIn("bob", "SCOPE_ledger.read");
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			chatClient(context).prompt("close the books").call().content();
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactly("ledger_balance"));
			assertThat(toolAnswer(model)).isEqualTo("Tool 'close_books' requires authority SCOPE_ledger.write, which "
					+ "the caller does not have. Do not retry this call.");
			assertThat(context.getBean(LedgerTools.class).closings()).isZero();
		});
	}

	@Test
	void anUnauthenticatedTurnIsOfferedOnlyTheToolsThatRequireNoAuthority() {
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			chatClient(context).prompt("close the books").tools(new RateTools()).call().content();
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactlyInAnyOrder("ledger_balance", "exchange_rate"));
			assertThat(toolAnswer(model)).isEqualTo("Tool 'close_books' requires authority SCOPE_ledger.write, and the "
					+ "caller is not authenticated. Do not retry this call.");
		});
	}

	@Test
	void thePrincipalInTheToolContextDecidesTheToolsOffered() {
		signIn("bob", "SCOPE_ledger.read");
		ToolPrincipal job = ToolPrincipal.of("closing-job", Set.of("SCOPE_ledger.write"));
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			chatClient(context).prompt("close the books")
				.toolContext(Map.of(AgentToolCallback.PRINCIPAL_KEY, job))
				.call()
				.content();
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactlyInAnyOrder("close_books", "ledger_balance"));
			assertThat(toolAnswer(model)).isEqualTo("books closed");
		});
	}

	@Test
	void theToolsOfferedOnTheStreamPathAreTheCallersToo() {
		signIn("bob", "SCOPE_ledger.read");
		this.contextRunner.withUserConfiguration(ToolResolvingModelConfiguration.class).run((context) -> {
			List<String> chunks = chatClient(context).prompt("close the books")
				.stream()
				.content()
				.collectList()
				.block();
			assertThat(chunks).containsExactly("done");
			ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
			assertThat(model.offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactly("ledger_balance"));
			assertThat(context.getBean(LedgerTools.class).closings()).isZero();
		});
	}

	@Test
	void aSpringAiToolIsOfferedByItsConfiguredAuthoritiesFromItsFirstTurn() {
		ApplicationContextRunner readersOnly = this.contextRunner
			.withPropertyValues("agent.middleware.authorization.defaults.authorities=SCOPE_ledger.read")
			.withUserConfiguration(ToolResolvingModelConfiguration.class);
		readersOnly.run((context) -> {
			chatClient(context).prompt("close the books").tools(new RateTools()).call().content();
			assertThat(context.getBean(ScriptedChatModel.class).offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).isEmpty());
		});
		signIn("bob", "SCOPE_ledger.read");
		readersOnly.run((context) -> {
			chatClient(context).prompt("close the books").tools(new RateTools()).call().content();
			assertThat(context.getBean(ScriptedChatModel.class).offeredTools).hasSize(2)
				.allSatisfy((tools) -> assertThat(tools).containsExactlyInAnyOrder("ledger_balance", "exchange_rate"));
		});
	}

	private static void signIn(String name, String... authorities) {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(name, "n/a",
					AuthorityUtils.createAuthorityList(authorities)));
	}

	private static ScriptedChatModel closeBooksThenAnswer() {
		return new ScriptedChatModel(toolCalls(call("c1", "close_books", "{}")), text("done"));
	}

	private static String toolAnswer(ScriptedChatModel model) {
		List<Message> secondInput = model.prompts.get(1).getInstructions();
		assertThat(secondInput).as("no stack trace reaches the model")
			.noneMatch((message) -> String.valueOf(message.getText()).contains("\tat "));
		ToolResponseMessage answer = secondInput.stream()
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
	 * A chat model that, as a Spring AI model module does, gets the context's
	 * {@link ToolCallingManager} and asks it for the tool definitions of each request; it
	 * calls {@code close_books} whatever it was offered.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ToolResolvingModelConfiguration {

		@Bean
		ScriptedChatModel chatModel(ToolCallingManager toolCallingManager) {
			return new ScriptedChatModel(toolCallingManager, toolCalls(call("c1", "close_books", "{}")), text("done"));
		}

	}

	static class RateTools {

		@Tool(name = "exchange_rate", description = "The exchange rate of a currency")
		String exchangeRate(String currency) {
			return "1.08";
		}

	}

	public static class LedgerTools {

		private int closings;

		@AgentTool(description = "Closes the books of the month", safety = SafetyLevel.MODERATE,
				authorities = "SCOPE_ledger.write")
		public String closeBooks() {
			this.closings++;
			return "books closed";
		}

		@AgentTool(description = "The balance of the ledger", safety = SafetyLevel.SAFE)
		public String ledgerBalance() {
			return "42";
		}

		public int closings() {
			return this.closings;
		}

	}

}
