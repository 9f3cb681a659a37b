package dev.agentmiddleware.autoconfigure.actuate;

import java.time.LocalDate;
import java.time.ZoneOffset;

import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.ModelUsage;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The budget section of the {@code agentmiddleware} endpoint: limits and prices in the
 * overview, what is left for a thread and for a principal today, as written to JSON.
 */
class BudgetEndpointTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ThreadStoreAutoConfiguration.class, AgentAutoConfiguration.class,
				AgentMiddlewareEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=agentmiddleware",
				"agent.middleware.budget.currency=EUR", "agent.middleware.budget.max-tokens-per-run=50000",
				"agent.middleware.budget.max-tokens-per-thread=10000",
				"agent.middleware.budget.max-cost-per-thread=0.50",
				"agent.middleware.budget.max-tokens-per-principal-per-day=1000",
				"agent.middleware.budget.prices.gpt-4o-mini.input-per-million=0.15",
				"agent.middleware.budget.prices.gpt-4o-mini.output-per-million=0.60");

	@Test
	void showsWhatIsLeftForAThreadAndForAPrincipalToday() {
		this.contextRunner.run((context) -> {
			AgentRun run = context.getBean(AgentRuns.class).start("conversation-42", "alice");
			run.count(ModelUsage.of("gpt-4o-mini", 1000, 200));
			run.count(ModelUsage.unknown("gpt-4o-mini"));
			AgentMiddlewareEndpoint endpoint = context.getBean(AgentMiddlewareEndpoint.class);
			JsonNode thread = json(endpoint.entry("threads", "conversation-42")).path("budget");
			assertThat(thread.path("tokens").toString()).isEqualTo("{\"limit\":10000,\"used\":1200,\"left\":8800}");
			assertThat(thread.path("cost").path("limit").decimalValue()).isEqualByComparingTo("0.50");
			assertThat(thread.path("cost").path("used").decimalValue()).isEqualByComparingTo("0.00027");
			assertThat(thread.path("cost").path("left").decimalValue()).isEqualByComparingTo("0.49973");
			assertThat(thread.path("cost").path("currency").asString()).isEqualTo("EUR");
			assertThat(thread.path("responsesWithoutUsage").asLong()).isEqualTo(1);
			assertThat(thread.path("unpricedResponses").asLong()).isEqualTo(1);
			assertThat(thread.path("day").isNull()).isTrue();
			JsonNode alice = json(endpoint.entry("principals", "alice")).path("budget");
			assertThat(alice.path("day").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
			assertThat(alice.path("tokens").toString()).isEqualTo("{\"limit\":1000,\"used\":1200,\"left\":0}");
			assertThat(alice.path("cost").isNull()).as("no cost limit per principal").isTrue();
			assertThat(json(endpoint.entry("principals", "bob")).path("budget").path("tokens").path("used").asLong())
				.isZero();
			assertThat(endpoint.entry("threads", "conversation-42").toString()).doesNotContain("conversation-42");
			assertThat(endpoint.entry("sessions", "conversation-42")).as("no such scope: 404").isNull();
		});
	}

	@Test
	void theOverviewShowsTheLimitsCurrencyAndPrices() {
		this.contextRunner.run((context) -> {
			JsonNode budget = json(context.getBean(AgentMiddlewareEndpoint.class).agentMiddleware()).path("sections")
				.path("budget");
			assertThat(budget.path("currency").asString()).isEqualTo("EUR");
			assertThat(budget.path("limits").path("per-run").path("tokens").asLong()).isEqualTo(50000);
			assertThat(budget.path("limits").path("per-thread").path("cost").decimalValue())
				.isEqualByComparingTo("0.50");
			assertThat(budget.path("limits").path("per-principal-per-day").path("tokens").asLong()).isEqualTo(1000);
			assertThat(budget.path("prices").path("gpt-4o-mini").path("outputPerMillion").decimalValue())
				.isEqualByComparingTo("0.60");
		});
	}

	@Test
	void aScopeWithoutALimitHasNoPart() {
		this.contextRunner.withPropertyValues("agent.middleware.budget.max-tokens-per-principal-per-day=0")
			.run((context) -> assertThat(context.getBean(AgentMiddlewareEndpoint.class).entry("principals", "alice"))
				.isNull());
	}

	private static JsonNode json(Object value) {
		JsonMapper mapper = JsonMapper.builder().build();
		return mapper.readTree(mapper.writeValueAsString(value));
	}

}
