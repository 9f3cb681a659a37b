package dev.agentmiddleware.agent;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.agent.AgentBudget.BudgetPolicy;
import dev.agentmiddleware.agent.AgentBudget.Limits;
import dev.agentmiddleware.agent.AgentBudget.ModelPrice;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.AgentRun.ToolCallDecision;
import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;
import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AgentBudgetTests {

	private static final ModelPrice MINI = new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.60"));

	private final ThreadStore store = new InMemoryThreadStore();

	private final MutableClock clock = new MutableClock(Instant.parse("2025-03-01T23:59:00Z"));

	@Test
	void aPriceCoversItsModelAndItsDatedVersionsButNoOtherModelSharingItsPrefix() {
		BudgetPolicy policy = new BudgetPolicy(Limits.NONE, Limits.NONE, Limits.NONE, "USD",
				Map.of("gpt-4o", new ModelPrice(new BigDecimal("2.50"), BigDecimal.TEN), "claude-3-5-sonnet", MINI));
		assertThat(policy.priceOf("GPT-4o")).isEqualTo(policy.prices().get("gpt-4o"));
		assertThat(policy.priceOf("gpt-4o-2024-08-06")).isEqualTo(policy.prices().get("gpt-4o"));
		assertThat(policy.priceOf("claude-3-5-sonnet-20241022")).isEqualTo(MINI);
		assertThat(policy.priceOf("gpt-4o-mini")).as("another model, not a version").isNull();
		assertThat(policy.priceOf("gpt-4o-mini-2024-07-18")).isNull();
		assertThat(policy.priceOf(null)).isNull();
	}

	@Test
	void aCostBudgetWithoutAnyPriceIsRefused() {
		assertThatExceptionOfType(InvalidPolicyException.class)
			.isThrownBy(
					() -> new BudgetPolicy(new Limits(0, BigDecimal.ONE), Limits.NONE, Limits.NONE, "USD", Map.of()))
			.withMessageContaining("A cost budget needs the price of at least one model");
	}

	@Test
	void aPrincipalsRecordIsKeyedByTheHashOfItsNameAndTheUtcDay() {
		assertThat(AgentBudget.principalDayKey("alice", LocalDate.parse("2025-03-01")))
			.isEqualTo("principal:2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90:2025-03-01");
	}

	@Test
	void aSpentBudgetAnswersEveryPendingCallWithTheFinalAnswerAndEndsTheRun() {
		AgentRun run = runs(new BudgetPolicy(new Limits(1000, null), Limits.NONE, Limits.NONE, "USD", Map.of()))
			.start("t1");
		assertThat(run.budgetSpent()).isNull();
		run.beginIteration(List.of());
		run.count(ModelUsage.of("gpt-4o-mini", 900, 150));
		List<ToolCallDecision> decisions = run.decide(List.of(call("c1", "search"), call("c2", "fetch")));
		assertThat(decisions).allSatisfy((decision) -> {
			assertThat(decision.runs()).isFalse();
			assertThat(decision.endsRun()).isTrue();
			assertThat(decision.answer()).isEqualTo("Stopped: this run's token budget of 1,000 is spent (1,050 used).");
		});
		assertThat(run.budgetSpent()).isEqualTo(decisions.get(0).answer());
	}

	@Test
	void aPrincipalsDailyBudgetRenewsAtMidnightUtcAndIsCountedForThatPrincipalOnly() {
		AgentRuns runs = runs(new BudgetPolicy(Limits.NONE, Limits.NONE, new Limits(0, new BigDecimal("0.01")), "EUR",
				Map.of("gpt-4o-mini", MINI)));
		AgentRun alice = runs.start("t1", "alice");
		alice.count(ModelUsage.of("gpt-4o-mini", 40_000, 10_000));
		// 40,000 x 0.15 / 1M + 10,000 x 0.60 / 1M = 0.006 + 0.006
		assertThat(runs.start("t2", "alice").budgetSpent())
			.isEqualTo("Stopped: today's cost budget of 0.01 EUR for this user is spent (0.0120 EUR used; it renews at "
					+ "midnight UTC).");
		assertThat(runs.start("t3", "bob").budgetSpent()).isNull();
		assertThat(runs.start("t4", null).budgetSpent()).as("no principal, no per-principal budget").isNull();
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(runs.start("t2", "alice").budgetSpent()).isNull();
		assertThat(runs.budget().principalToday("alice").cost()).isEqualByComparingTo("0");
	}

	@Test
	void unknownUsageAndUnpricedModelsAreCountedAsSuchAndReported() {
		List<String> recorded = new ArrayList<>();
		AgentBudget budget = new AgentBudget(
				new BudgetPolicy(Limits.NONE, new Limits(10, null), Limits.NONE, "USD", Map.of("gpt-4o-mini", MINI)),
				this.store, this.clock,
				(usage, input, output, principal) -> recorded.add(usage.model() + " known=" + usage.known() + " cost="
						+ ((input != null) ? input.add(output).toPlainString() : "unknown")));
		AgentRun run = new AgentRuns(AgentMiddleware.compose(List.of()), this.store,
				new LoopGuard(LoopGuardPolicy.UNLIMITED, this.store), budget)
			.start("t1");
		run.count(ModelUsage.unknown("gpt-4o-mini"));
		run.count(ModelUsage.of("llama3", 5, 4));
		run.count(ModelUsage.of("gpt-4o-mini", 1_000_000, 0));
		assertThat(budget.thread("t1")).satisfies((spent) -> {
			assertThat(spent.tokens()).isEqualTo(1_000_009);
			assertThat(spent.unknownUsage()).isEqualTo(1);
			assertThat(spent.unpriced()).isEqualTo(2);
			assertThat(spent.cost()).isEqualByComparingTo("0.15");
		});
		assertThat(recorded).containsExactly("gpt-4o-mini known=false cost=unknown", "llama3 known=true cost=unknown",
				"gpt-4o-mini known=true cost=0.15");
	}

	private AgentRuns runs(BudgetPolicy policy) {
		return new AgentRuns(AgentMiddleware.compose(List.of()), this.store,
				new LoopGuard(LoopGuardPolicy.UNLIMITED, this.store),
				new AgentBudget(policy, this.store, this.clock, UsageMetrics.NONE));
	}

	private static ToolCallRequest call(String id, String name) {
		return new ToolCallRequest(id, name, "{}");
	}

}
