package dev.agentmiddleware.agent;

import java.math.BigDecimal;

import org.jspecify.annotations.Nullable;

/**
 * Receives what every model call of an agent run used, as {@link AgentBudget} counts it:
 * for metrics such as {@code agent.tokens} and {@code agent.cost}. Called on the thread
 * that runs the loop, once per model response; it must be cheap, thread-safe and must not
 * throw. <pre>{@code
 * UsageMetrics metrics = (usage, inputCost, outputCost, principal) -> log.info("{} used {} tokens", usage.model(),
 *         usage.totalTokens());
 * }</pre>
 */
@FunctionalInterface
public interface UsageMetrics {

	/** Records nothing. */
	UsageMetrics NONE = (usage, inputCost, outputCost, principal) -> {
	};

	/**
	 * Records one model response.
	 * @param usage what it used; {@link ModelUsage#known()} is {@code false} for a
	 * response without usage
	 * @param inputCost the cost of its input tokens, or {@code null} when unknown (no
	 * usage, or no price for the model)
	 * @param outputCost the cost of its output tokens, or {@code null} when unknown
	 * @param principal the name of the principal the run is for, or {@code null} without
	 * one
	 */
	void counted(ModelUsage usage, @Nullable BigDecimal inputCost, @Nullable BigDecimal outputCost,
			@Nullable String principal);

}
