package dev.agentmiddleware.autoconfigure.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.agent.AgentBudget.BudgetPolicy;
import dev.agentmiddleware.agent.AgentBudget.Limits;
import dev.agentmiddleware.agent.AgentBudget.ModelPrice;

/**
 * The mapping of {@code agent.middleware.budget} to the budgets' policy, so that
 * {@link AgentAutoConfiguration} only wires beans. Budgets are per run, thread and
 * principal, not per tool, so they have no {@code tools.<name>} block;
 * {@code enabled: false} is their one off-switch (nothing counted, no limits, no
 * metrics).
 */
final class BudgetConfigurer {

	private BudgetConfigurer() {
	}

	static BudgetPolicy policy(BudgetProperties properties) {
		if (!properties.isEnabled()) {
			return BudgetPolicy.UNLIMITED;
		}
		Map<String, ModelPrice> prices = new LinkedHashMap<>();
		properties.getPrices()
			.forEach((model, price) -> prices.put(model,
					new ModelPrice(Objects.requireNonNull(price.getInputPerMillion()),
							Objects.requireNonNull(price.getOutputPerMillion()))));
		return new BudgetPolicy(new Limits(properties.getMaxTokensPerRun(), properties.getMaxCostPerRun()),
				new Limits(properties.getMaxTokensPerThread(), properties.getMaxCostPerThread()),
				new Limits(properties.getMaxTokensPerPrincipalPerDay(), properties.getMaxCostPerPrincipalPerDay()),
				properties.getCurrency(), prices);
	}

}
