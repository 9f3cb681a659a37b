package dev.agentmiddleware.autoconfigure.agent;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the token and cost budgets of agent runs, under
 * {@code agent.middleware.budget}; a token limit of 0 and a cost limit that is not set
 * mean none.
 */
@ConfigurationProperties(BudgetProperties.PREFIX)
class BudgetProperties implements ValidatedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.budget";

	/**
	 * Whether to count the usage of model responses, enforce the limits below and record
	 * agent.tokens and agent.cost.
	 */
	private boolean enabled = true;

	/**
	 * The currency of the prices and cost limits, named in the answer that ends a run
	 * whose cost budget is spent.
	 */
	private String currency = "USD";

	/**
	 * The most tokens (input and output) of one run of the agent loop; 0 for no limit.
	 */
	private long maxTokensPerRun = 0;

	/**
	 * The most tokens of one thread (a conversation), across runs and instances; 0 for no
	 * limit.
	 */
	private long maxTokensPerThread = 0;

	/**
	 * The most tokens of one principal per day (UTC), across threads and instances; 0 for
	 * no limit.
	 */
	private long maxTokensPerPrincipalPerDay = 0;

	/**
	 * The most money one run of the agent loop may cost, in the currency; none when not
	 * set.
	 */
	private @Nullable BigDecimal maxCostPerRun;

	/**
	 * The most money one thread (a conversation) may cost, across runs and instances;
	 * none when not set.
	 */
	private @Nullable BigDecimal maxCostPerThread;

	/**
	 * The most money one principal may spend per day (UTC), across threads and instances;
	 * none when not set.
	 */
	private @Nullable BigDecimal maxCostPerPrincipalPerDay;

	/**
	 * Prices per model name, as the model's responses name it; a name also prices its
	 * dated versions (gpt-4o-mini prices gpt-4o-mini-2024-07-18). Put a name with dots in
	 * brackets: prices[claude-3.5-sonnet].
	 */
	private final Map<String, Price> prices = new LinkedHashMap<>();

	private final Metrics metrics = new Metrics();

	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("maxTokensPerRun", this.maxTokensPerRun, 0)
			.atLeast("maxTokensPerThread", this.maxTokensPerThread, 0)
			.atLeast("maxTokensPerPrincipalPerDay", this.maxTokensPerPrincipalPerDay, 0)
			.notBlank("currency", this.currency)
			.noBlankElement("metrics.principals", this.metrics.getPrincipals());
		this.prices.forEach((model, price) -> {
			String property = checks.property("prices") + "." + model;
			required(property + ".input-per-million", price.getInputPerMillion());
			required(property + ".output-per-million", price.getOutputPerMillion());
		});
		Map<String, @Nullable BigDecimal> costLimits = new LinkedHashMap<>();
		costLimits.put("maxCostPerRun", this.maxCostPerRun);
		costLimits.put("maxCostPerThread", this.maxCostPerThread);
		costLimits.put("maxCostPerPrincipalPerDay", this.maxCostPerPrincipalPerDay);
		costLimits.forEach((field, limit) -> {
			notNegative(checks, field, limit);
			if (limit != null && limit.signum() > 0 && this.prices.isEmpty()) {
				throw new InvalidToolConfigurationException(checks.property(field), limit,
						"a cost budget needs the price of the models it counts, and no price is configured",
						"Add the price of each model you use under '" + checks.property("prices")
								+ ".<model>' (input-per-million and output-per-million, in " + this.currency
								+ "), or remove '" + checks.property(field) + "'.");
			}
		});
	}

	private static void notNegative(PropertyChecks checks, String field, @Nullable BigDecimal value) {
		if (value != null && value.signum() < 0) {
			throw new InvalidToolConfigurationException(checks.property(field), value, "must not be negative",
					"Allowed: an amount of 0 or more (0 or not set: no limit). Update '" + checks.property(field)
							+ "' in your application's configuration.");
		}
	}

	private static void required(String property, @Nullable BigDecimal value) {
		if (value == null || value.signum() < 0) {
			throw new InvalidToolConfigurationException(property, value,
					(value == null) ? "is not set" : "must not be negative",
					"Allowed: the price of a million tokens, 0 or more. Update '" + property
							+ "' in your application's configuration.");
		}
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getCurrency() {
		return this.currency;
	}

	public void setCurrency(String currency) {
		this.currency = currency;
	}

	public long getMaxTokensPerRun() {
		return this.maxTokensPerRun;
	}

	public void setMaxTokensPerRun(long maxTokensPerRun) {
		this.maxTokensPerRun = maxTokensPerRun;
	}

	public long getMaxTokensPerThread() {
		return this.maxTokensPerThread;
	}

	public void setMaxTokensPerThread(long maxTokensPerThread) {
		this.maxTokensPerThread = maxTokensPerThread;
	}

	public long getMaxTokensPerPrincipalPerDay() {
		return this.maxTokensPerPrincipalPerDay;
	}

	public void setMaxTokensPerPrincipalPerDay(long maxTokensPerPrincipalPerDay) {
		this.maxTokensPerPrincipalPerDay = maxTokensPerPrincipalPerDay;
	}

	public @Nullable BigDecimal getMaxCostPerRun() {
		return this.maxCostPerRun;
	}

	public void setMaxCostPerRun(@Nullable BigDecimal maxCostPerRun) {
		this.maxCostPerRun = maxCostPerRun;
	}

	public @Nullable BigDecimal getMaxCostPerThread() {
		return this.maxCostPerThread;
	}

	public void setMaxCostPerThread(@Nullable BigDecimal maxCostPerThread) {
		this.maxCostPerThread = maxCostPerThread;
	}

	public @Nullable BigDecimal getMaxCostPerPrincipalPerDay() {
		return this.maxCostPerPrincipalPerDay;
	}

	public void setMaxCostPerPrincipalPerDay(@Nullable BigDecimal maxCostPerPrincipalPerDay) {
		this.maxCostPerPrincipalPerDay = maxCostPerPrincipalPerDay;
	}

	public Map<String, Price> getPrices() {
		return this.prices;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	/**
	 * The price of one model's tokens, in the currency.
	 */
	public static class Price {

		/** The price of a million input (prompt) tokens. */
		private @Nullable BigDecimal inputPerMillion;

		/** The price of a million output (completion) tokens. */
		private @Nullable BigDecimal outputPerMillion;

		public @Nullable BigDecimal getInputPerMillion() {
			return this.inputPerMillion;
		}

		public void setInputPerMillion(@Nullable BigDecimal inputPerMillion) {
			this.inputPerMillion = inputPerMillion;
		}

		public @Nullable BigDecimal getOutputPerMillion() {
			return this.outputPerMillion;
		}

		public void setOutputPerMillion(@Nullable BigDecimal outputPerMillion) {
			this.outputPerMillion = outputPerMillion;
		}

	}

	/**
	 * The agent.tokens and agent.cost metrics. Principal names are personal data and
	 * unbounded, so a metric names only the principals listed here; every other principal
	 * is tagged "other", a run without one "none".
	 */
	public static class Metrics {

		/**
		 * The principals whose usage the agent.principal tag names; every other principal
		 * is tagged "other".
		 */
		private List<String> principals = new ArrayList<>();

		public List<String> getPrincipals() {
			return this.principals;
		}

		public void setPrincipals(List<String> principals) {
			this.principals = principals;
		}

	}

}
