package dev.agentmiddleware.autoconfigure.agent;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.agentmiddleware.agent.AgentBudget;
import dev.agentmiddleware.agent.AgentBudget.BudgetPolicy;
import dev.agentmiddleware.agent.AgentBudget.Limits;
import dev.agentmiddleware.agent.AgentBudget.ModelPrice;
import dev.agentmiddleware.agent.AgentBudget.Spending;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;
import org.jspecify.annotations.Nullable;

/**
 * The {@code budget} section of the {@code agentmiddleware} actuator endpoint: the
 * limits, currency and prices in the overview, and what is left of the per-thread budget
 * ({@code /actuator/agentmiddleware/threads/{id}}) and of a principal's budget today
 * ({@code /actuator/agentmiddleware/principals/{name}}), read from the thread store, so
 * the same on every instance. A scope without a limit has no part.
 */
final class BudgetEndpointContributor implements AgentMiddlewareEndpointContributor {

	private final AgentBudget budget;

	BudgetEndpointContributor(AgentBudget budget) {
		this.budget = budget;
	}

	@Override
	public String name() {
		return "budget";
	}

	@Override
	public Object describe() {
		BudgetPolicy policy = this.budget.policy();
		Map<String, Limits> limits = new LinkedHashMap<>();
		limits.put("per-run", policy.perRun());
		limits.put("per-thread", policy.perThread());
		limits.put("per-principal-per-day", policy.perPrincipalPerDay());
		return new BudgetSection(policy.currency(), this.budget.today(), limits, new TreeMap<>(policy.prices()));
	}

	@Override
	public @Nullable Object describe(String scope, String id) {
		BudgetPolicy policy = this.budget.policy();
		if (THREADS.equals(scope) && policy.perThread().limited()) {
			return left(policy.perThread(), this.budget.thread(id), null, policy.currency());
		}
		if (PRINCIPALS.equals(scope) && policy.perPrincipalPerDay().limited()) {
			return left(policy.perPrincipalPerDay(), this.budget.principalToday(id), this.budget.today(),
					policy.currency());
		}
		return null;
	}

	private static BudgetLeft left(Limits limits, Spending spending, @Nullable LocalDate day, String currency) {
		TokensLeft tokens = (limits.tokens() > 0)
				? new TokensLeft(limits.tokens(), spending.tokens(), Math.max(0, limits.tokens() - spending.tokens()))
				: null;
		BigDecimal cost = limits.cost();
		CostLeft money = (cost != null && limits.limitsCost())
				? new CostLeft(cost, spending.cost(), cost.subtract(spending.cost()).max(BigDecimal.ZERO), currency)
				: null;
		return new BudgetLeft(day, tokens, money, spending.unknownUsage(), spending.unpriced());
	}

	/**
	 * The overview's section.
	 *
	 * @param currency the currency of prices and cost limits
	 * @param day today, in UTC: the day of the per-principal budgets
	 * @param limits the limits per scope (tokens 0 and cost absent: no limit)
	 * @param prices the price per model, per million tokens
	 */
	public record BudgetSection(String currency, LocalDate day, Map<String, Limits> limits,
			Map<String, ModelPrice> prices) {

	}

	/**
	 * What is left of one thread's or one principal's budget.
	 *
	 * @param day the day of a principal's budget, or {@code null} for a thread
	 * @param tokens the token budget, or {@code null} without one
	 * @param cost the cost budget, or {@code null} without one
	 * @param responsesWithoutUsage how many model responses reported no usage (counted,
	 * not guessed)
	 * @param unpricedResponses how many model responses had no known cost
	 */
	public record BudgetLeft(@Nullable LocalDate day, @Nullable TokensLeft tokens, @Nullable CostLeft cost,
			long responsesWithoutUsage, long unpricedResponses) {

	}

	/**
	 * A token budget.
	 *
	 * @param limit the limit
	 * @param used the tokens used
	 * @param left the tokens left, 0 once spent
	 */
	public record TokensLeft(long limit, long used, long left) {

	}

	/**
	 * A cost budget.
	 *
	 * @param limit the limit
	 * @param used the money spent
	 * @param left the money left, 0 once spent
	 * @param currency the currency
	 */
	public record CostLeft(BigDecimal limit, BigDecimal used, BigDecimal left, String currency) {

	}

}
