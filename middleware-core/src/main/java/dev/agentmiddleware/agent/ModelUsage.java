package dev.agentmiddleware.agent;

import org.jspecify.annotations.Nullable;

/**
 * What one model call used, as the model's response reports it: the model's name and its
 * input (prompt) and output (completion) tokens. A response without usage is
 * {@link #unknown(String) unknown}: budgets count it as such and never guess its tokens.
 * <pre>{@code
 * ModelUsage usage = ModelUsage.of("gpt-4o-mini", 1200, 350);
 * ModelUsage none = ModelUsage.unknown("gpt-4o-mini");
 * }</pre>
 *
 * @param model the model's name as the response gives it, or {@code null} when the
 * response names none
 * @param inputTokens the input (prompt) tokens; 0 when unknown
 * @param outputTokens the output (completion) tokens; 0 when unknown
 * @param totalTokens all tokens of the call, which a model may report beyond input and
 * output; 0 when unknown
 * @param known whether the response reported its usage
 */
public record ModelUsage(@Nullable String model, long inputTokens, long outputTokens, long totalTokens, boolean known) {

	/**
	 * Validates the counts.
	 */
	public ModelUsage {
		if (inputTokens < 0 || outputTokens < 0 || totalTokens < 0) {
			throw new IllegalArgumentException("Token counts must not be negative");
		}
		model = (model != null && !model.isBlank()) ? model : null;
	}

	/**
	 * A reported usage whose total is input plus output.
	 * @param model the model's name, or {@code null}
	 * @param inputTokens the input tokens
	 * @param outputTokens the output tokens
	 * @return the usage
	 */
	public static ModelUsage of(@Nullable String model, long inputTokens, long outputTokens) {
		return new ModelUsage(model, inputTokens, outputTokens, inputTokens + outputTokens, true);
	}

	/**
	 * The usage of a response that reported none.
	 * @param model the model's name, or {@code null}
	 * @return the unknown usage, counting no tokens
	 */
	public static ModelUsage unknown(@Nullable String model) {
		return new ModelUsage(model, 0, 0, 0, false);
	}

}
