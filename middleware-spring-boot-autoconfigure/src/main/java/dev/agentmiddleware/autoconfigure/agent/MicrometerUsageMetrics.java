package dev.agentmiddleware.autoconfigure.agent;

import java.math.BigDecimal;
import java.util.Set;

import dev.agentmiddleware.agent.ModelUsage;
import dev.agentmiddleware.agent.UsageMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The usage of model responses as Micrometer counters: {@value #TOKENS} (tokens) and
 * {@value #COST} (money, in the configured currency) tagged by {@value #MODEL_TAG},
 * {@value #KIND_TAG} ({@code input} or {@code output}) and {@value #PRINCIPAL_TAG};
 * {@value #TOKENS_UNKNOWN} counts the responses without usage and {@value #COST_UNKNOWN}
 * (only while prices are configured) the responses whose cost is unknown.
 *
 * <p>
 * The principal tag is bounded: it names only the principals configured in
 * {@code agent.middleware.budget.metrics.principals}; any other principal is
 * {@value #OTHER} and a run without one {@value #NONE}. Principal names are personal data
 * and unbounded in number, so by default no metric carries one; the per-principal view
 * with names is the actuator endpoint's.
 */
final class MicrometerUsageMetrics implements UsageMetrics {

	static final String TOKENS = "agent.tokens";

	static final String COST = "agent.cost";

	static final String TOKENS_UNKNOWN = "agent.tokens.unknown";

	static final String COST_UNKNOWN = "agent.cost.unknown";

	static final String MODEL_TAG = "agent.model";

	static final String KIND_TAG = "agent.usage.kind";

	static final String PRINCIPAL_TAG = "agent.principal";

	static final String OTHER = "other";

	static final String NONE = "none";

	private static final String UNKNOWN_MODEL = "unknown";

	private final MeterRegistry registry;

	private final String currency;

	private final boolean tracksCost;

	private final Set<String> namedPrincipals;

	MicrometerUsageMetrics(MeterRegistry registry, String currency, boolean tracksCost, Set<String> namedPrincipals) {
		this.registry = registry;
		this.currency = currency;
		this.tracksCost = tracksCost;
		this.namedPrincipals = Set.copyOf(namedPrincipals);
	}

	@Override
	public void counted(ModelUsage usage, @Nullable BigDecimal inputCost, @Nullable BigDecimal outputCost,
			@Nullable String principal) {
		String model = (usage.model() != null) ? usage.model() : UNKNOWN_MODEL;
		String principalTag = (principal == null) ? NONE : this.namedPrincipals.contains(principal) ? principal : OTHER;
		if (!usage.known()) {
			counter(TOKENS_UNKNOWN, "Model responses without usage metadata", model, null, principalTag, null)
				.increment();
		}
		else {
			counter(TOKENS, "Tokens used by model calls of agent runs", model, "input", principalTag, "tokens")
				.increment(usage.inputTokens());
			counter(TOKENS, "Tokens used by model calls of agent runs", model, "output", principalTag, "tokens")
				.increment(usage.outputTokens());
		}
		if (inputCost != null && outputCost != null) {
			String description = "Cost of model calls of agent runs, in " + this.currency;
			counter(COST, description, model, "input", principalTag, this.currency).increment(inputCost.doubleValue());
			counter(COST, description, model, "output", principalTag, this.currency)
				.increment(outputCost.doubleValue());
		}
		else if (this.tracksCost) {
			counter(COST_UNKNOWN, "Model responses whose cost is unknown (no usage, or no price for the model)", model,
					null, principalTag, null)
				.increment();
		}
	}

	private Counter counter(String name, String description, String model, @Nullable String kind, String principal,
			@Nullable String unit) {
		Counter.Builder builder = Counter.builder(name)
			.description(description)
			.tag(MODEL_TAG, model)
			.tag(PRINCIPAL_TAG, principal)
			.baseUnit(unit);
		if (kind != null) {
			builder.tag(KIND_TAG, kind);
		}
		return builder.register(this.registry);
	}

}
