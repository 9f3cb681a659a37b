package dev.agentmiddleware.autoconfigure.agent;

import java.math.BigDecimal;

import dev.agentmiddleware.agent.AgentBudget;
import dev.agentmiddleware.agent.AgentBudget.BudgetPolicy;
import dev.agentmiddleware.agent.AgentBudget.ModelPrice;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.UsageMetrics;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class BudgetAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ThreadStoreAutoConfiguration.class, AgentAutoConfiguration.class));

	@Test
	void mapsTheLimitsAndPricesAndGivesTheBudgetToTheRuns() {
		this.contextRunner.withPropertyValues("agent.middleware.budget.max-tokens-per-run=20000",
				"agent.middleware.budget.max-cost-per-principal-per-day=2.50", "agent.middleware.budget.currency=EUR",
				"agent.middleware.budget.prices[claude-3.5-sonnet].input-per-million=3",
				"agent.middleware.budget.prices[claude-3.5-sonnet].output-per-million=15")
			.run((context) -> {
				AgentBudget budget = context.getBean(AgentBudget.class);
				BudgetPolicy policy = budget.policy();
				assertThat(policy.perRun().tokens()).isEqualTo(20000);
				assertThat(policy.perRun().cost()).isNull();
				assertThat(policy.perThread().limited()).isFalse();
				assertThat(policy.perPrincipalPerDay().cost()).isEqualByComparingTo("2.50");
				assertThat(policy.currency()).isEqualTo("EUR");
				assertThat(policy.priceOf("claude-3.5-sonnet"))
					.isEqualTo(new ModelPrice(new BigDecimal("3"), new BigDecimal("15")));
				assertThat(context.getBean(AgentRuns.class).budget()).isSameAs(budget);
			});
	}

	@Test
	void aCostBudgetWithoutPricesFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.budget.max-cost-per-thread=1.00").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("agent.middleware.budget.max-cost-per-thread");
					assertThat(ex.getReason()).contains("no price is configured");
					assertThat(ex.getAction()).contains("agent.middleware.budget.prices.<model>");
				});
		});
	}

	@Test
	void aPriceWithoutItsOutputPriceFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.budget.prices.gpt-4o.input-per-million=2.50")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> assertThat(ex.getProperty())
					.isEqualTo("agent.middleware.budget.prices.gpt-4o.output-per-million")));
	}

	@Test
	void aNegativeLimitFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.budget.max-tokens-per-thread=-1")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("agent.middleware.budget.max-tokens-per-thread");
					assertThat(ex.getReason()).isEqualTo("must be 0 or more");
				}));
	}

	@Test
	void recordsUsageMetricsOnlyWithAMeterRegistryAndWhileEnabled() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(UsageMetrics.class));
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(MicrometerUsageMetrics.class));
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("agent.middleware.budget.enabled=false", "agent.middleware.budget.max-tokens-per-run=5")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(UsageMetrics.class);
				assertThat(context.getBean(AgentBudget.class).policy()).isEqualTo(BudgetPolicy.UNLIMITED);
			});
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(AgentBudget.class));
	}

}
