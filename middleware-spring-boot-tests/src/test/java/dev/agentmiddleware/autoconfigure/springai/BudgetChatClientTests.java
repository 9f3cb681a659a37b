package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.agentmiddleware.agent.AgentBudget;
import dev.agentmiddleware.agent.AgentBudget.Spending;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentChatClientTests.ClockTools;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.call;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.text;
import static dev.agentmiddleware.autoconfigure.springai.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Token and cost budgets on a scripted {@code ChatClient} run: the test-double model
 * reports usage metadata as a model module does, the advisor counts it, and a spent
 * budget ends the loop with a final answer.
 */
class BudgetChatClientTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentChatClientAutoConfiguration.class, ToolCallingAutoConfiguration.class,
				ChatClientAutoConfiguration.class))
		.withBean(ClockTools.class)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new);

	@Test
	void aThreadsTokenBudgetEndsTheRunWithAFinalAnswerAndStopsTheNextRunBeforeAnyModelCall() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				toolCalls(call("c2", "current_time", "{\"zone\":\"UTC\"}")), text("never said"))
			.reporting("gpt-4o-mini", 4000, 1206);
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.budget.max-tokens-per-thread=10000")
			.run((context) -> {
				String stopped = "Stopped: this thread's token budget of 10,000 is spent (10,412 used).";
				assertThat(ask(context, "conversation-1", "What time is it?")).isEqualTo(stopped);
				assertThat(model.prompts).as("two model calls").hasSize(2);
				assertThat(context.getBean(ClockTools.class).calls).as("the second call was answered, not run")
					.hasValue(1);
				assertThat(ask(context, "conversation-1", "And now?")).isEqualTo(stopped);
				assertThat(model.prompts).as("no model call once the budget is spent").hasSize(2);
				Spending spent = context.getBean(AgentBudget.class).thread("conversation-1");
				assertThat(spent.tokens()).isEqualTo(10_412);
				assertThat(spent.inputTokens()).isEqualTo(8000);
				assertThat(spent.outputTokens()).isEqualTo(2412);
				assertThat(context.getBean(AgentBudget.class).thread("conversation-2").tokens()).isZero();
			});
	}

	@Test
	void aRunsCostBudgetEndsTheRunPricingTheDatedModelByItsConfiguredName() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				toolCalls(call("c2", "current_time", "{\"zone\":\"UTC\"}")), text("A new run answers."))
			.reporting("gpt-4o-mini-2024-07-18", 100_000, 20_000);
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.budget.max-cost-per-run=0.05",
					"agent.middleware.budget.prices.gpt-4o-mini.input-per-million=0.15",
					"agent.middleware.budget.prices.gpt-4o-mini.output-per-million=0.60")
			.run((context) -> {
				// each response: 100,000 x 0.15 / 1M + 20,000 x 0.60 / 1M = 0.015 + 0.012
				// = 0.027 USD
				assertThat(ask(context, "conversation-1", "What time is it?"))
					.isEqualTo("Stopped: this run's cost budget of 0.05 USD is spent (0.0540 USD used).");
				assertThat(context.getBean(ClockTools.class).calls).hasValue(1);
				assertThat(ask(context, "conversation-1", "Again?")).as("a new run has a budget of its own")
					.isEqualTo("A new run answers.");
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("agent.tokens")
					.tag("agent.model", "gpt-4o-mini-2024-07-18")
					.tag("agent.usage.kind", "input")
					.tag("agent.principal", "none")
					.counter()
					.count()).isEqualTo(300_000);
				assertThat(meters.get("agent.tokens").tag("agent.usage.kind", "output").counter().count())
					.isEqualTo(60_000);
				assertThat(meters.get("agent.cost").tag("agent.usage.kind", "input").counter().count()).isCloseTo(0.045,
						org.assertj.core.data.Offset.offset(1e-9));
				assertThat(meters.get("agent.cost").tag("agent.usage.kind", "output").counter().count())
					.isCloseTo(0.036, org.assertj.core.data.Offset.offset(1e-9));
				assertThat(meters.get("agent.cost").counter().getId().getBaseUnit()).isEqualTo("USD");
				assertThat(meters.find("agent.tokens.unknown").counter()).isNull();
			});
	}

	@Test
	void onTheStreamPathASpentBudgetIsTheFinalAnswerToo() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")), text("never"))
			.reporting("gpt-4o-mini", 700, 400);
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.budget.max-tokens-per-thread=1000")
			.run((context) -> {
				String stopped = "Stopped: this thread's token budget of 1,000 is spent (1,100 used).";
				assertThat(stream(context, "streamed", "time?")).isEqualTo(stopped);
				assertThat(stream(context, "streamed", "time again?")).isEqualTo(stopped);
				assertThat(model.prompts).hasSize(1);
				assertThat(context.getBean(ClockTools.class).calls).hasValue(0);
			});
	}

	@Test
	void aResponseWithoutUsageIsCountedAsUnknownAndNeverAsTokens() {
		ScriptedChatModel model = new ScriptedChatModel(toolCalls(call("c1", "current_time", "{}")),
				text("It is noon."));
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.budget.max-tokens-per-thread=10",
					"agent.middleware.budget.prices.gpt-4o-mini.input-per-million=0.15",
					"agent.middleware.budget.prices.gpt-4o-mini.output-per-million=0.60")
			.run((context) -> {
				assertThat(ask(context, "no-usage", "What time is it?")).isEqualTo("It is noon.");
				Spending spent = context.getBean(AgentBudget.class).thread("no-usage");
				assertThat(spent.tokens()).isZero();
				assertThat(spent.unknownUsage()).isEqualTo(2);
				assertThat(spent.unpriced()).isEqualTo(2);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("agent.tokens.unknown").tag("agent.model", "unknown").counter().count())
					.isEqualTo(2);
				assertThat(meters.get("agent.cost.unknown").counter().count()).isEqualTo(2);
				assertThat(meters.find("agent.tokens").counter()).isNull();
			});
	}

	@Test
	void theMetricsNameOnlyTheConfiguredPrincipals() {
		ScriptedChatModel model = new ScriptedChatModel(text("one"), text("two"), text("three"))
			.reporting("gpt-4o-mini", 10, 5);
		this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
			.withPropertyValues("agent.middleware.budget.metrics.principals=batch-job")
			.run((context) -> {
				askAs(context, "batch-job", "t1");
				askAs(context, "alice", "t2");
				context.getBean(ChatClient.Builder.class).build().prompt("anonymous").call().content();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.find("agent.tokens").tag("agent.usage.kind", "input").counters())
					.extracting((counter) -> counter.getId().getTag("agent.principal"))
					.containsExactlyInAnyOrder("batch-job", "other", "none");
			});
	}

	private static String ask(AssertableApplicationContext context, String conversation, String question) {
		return context.getBean(ChatClient.Builder.class)
			.build()
			.prompt(question)
			.tools(context.getBean(ClockTools.class))
			.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, conversation))
			.call()
			.content();
	}

	private static String askAs(AssertableApplicationContext context, String principal, String conversation) {
		return context.getBean(ChatClient.Builder.class)
			.build()
			.prompt("How much is left?")
			.toolContext(Map.of(AgentToolCallback.PRINCIPAL_KEY, principal))
			.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, conversation))
			.call()
			.content();
	}

	private static String stream(AssertableApplicationContext context, String conversation, String question) {
		List<String> chunks = context.getBean(ChatClient.Builder.class)
			.build()
			.prompt(question)
			.tools(context.getBean(ClockTools.class))
			.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, conversation))
			.stream()
			.content()
			.collectList()
			.block();
		return String.join("", chunks);
	}

	/**
	 * Two instances (two application contexts) on one PostgreSQL schema share a
	 * principal's daily budget through the JDBC thread store.
	 */
	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgresql {

		private PostgresTestDatabase database;

		@BeforeEach
		void createSchema() {
			this.database = PostgresTestDatabase.createSchema();
		}

		@AfterEach
		void dropSchema() {
			this.database.close();
		}

		@Test
		void twoInstancesShareAPrincipalsDailyBudgetWithoutStoringTheName() {
			ScriptedChatModel modelA = new ScriptedChatModel(text("A answers alice"), text("never"))
				.reporting("gpt-4o-mini", 400, 200);
			ScriptedChatModel modelB = new ScriptedChatModel(text("B answers alice"), text("B answers bob"))
				.reporting("gpt-4o-mini", 400, 200);
			instance(modelA).run((a) -> instance(modelB).run((b) -> {
				assertThat(askAs(a, "alice", "alice-1")).isEqualTo("A answers alice");
				assertThat(askAs(b, "alice", "alice-2")).as("600 of 1,000 used, so B calls the model")
					.isEqualTo("B answers alice");
				String stopped = "Stopped: today's token budget of 1,000 for this user is spent (1,200 used; it "
						+ "renews at midnight UTC).";
				assertThat(askAs(a, "alice", "alice-3")).isEqualTo(stopped);
				assertThat(modelA.prompts).as("A made no model call for the spent budget").hasSize(1);
				assertThat(askAs(b, "bob", "bob-1")).as("another principal has a budget of its own")
					.isEqualTo("B answers bob");
				assertThat(a.getBean(AgentBudget.class).principalToday("alice").tokens()).isEqualTo(1200);
				assertThat(b.getBean(AgentBudget.class).principalToday("bob").tokens()).isEqualTo(600);
				List<String> stored = JdbcClient.create(dataSource())
					.sql("SELECT thread_id || ' ' || metadata FROM agent_thread_metadata")
					.query(String.class)
					.list();
				assertThat(stored).isNotEmpty().noneMatch((row) -> row.contains("alice") || row.contains("bob"));
			}));
		}

		private ApplicationContextRunner instance(ScriptedChatModel model) {
			return BudgetChatClientTests.this.contextRunner.withBean(ScriptedChatModel.class, () -> model)
				.withBean(DataSource.class, this::dataSource)
				.withPropertyValues("agent.middleware.budget.max-tokens-per-principal-per-day=1000");
		}

		private DataSource dataSource() {
			return new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
					this.database.username(), this.database.password());
		}

	}

}
