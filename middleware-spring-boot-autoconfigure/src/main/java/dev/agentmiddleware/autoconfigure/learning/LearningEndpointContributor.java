package dev.agentmiddleware.autoconfigure.learning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.learning.ErrorPatternStore;
import dev.agentmiddleware.learning.ErrorPatternStore.ErrorPatternStatistics;
import dev.agentmiddleware.learning.ErrorPatternStore.ToolFailureStatistics;
import org.jspecify.annotations.Nullable;

/**
 * The {@code learning} section of the {@code agentmiddleware} endpoint: the most failing
 * tools and the most frequent error patterns, and for each tool its statistics and
 * patterns. Patterns are normalised and redacted, so no argument value shows.
 */
public final class LearningEndpointContributor implements AgentMiddlewareEndpointContributor {

	/** How many tools and patterns the global section lists. */
	public static final int TOP = 10;

	private final ErrorPatternStore store;

	/**
	 * Creates the contributor.
	 * @param store the store to describe
	 */
	public LearningEndpointContributor(ErrorPatternStore store) {
		this.store = store;
	}

	@Override
	public String name() {
		return "learning";
	}

	@Override
	public Object describe() {
		return new LearningDescriptor(this.store.topFailingTools(TOP), this.store.topPatterns(TOP), this.store.size(),
				this.store.evictedPatterns());
	}

	@Override
	public @Nullable Object describeTool(RegisteredTool tool) {
		ToolFailureStatistics statistics = this.store.statisticsOf(tool.name());
		List<ErrorPatternStatistics> patterns = this.store.patternsOf(tool.name());
		if (statistics == null && patterns.isEmpty()) {
			return null;
		}
		Map<String, Object> description = new LinkedHashMap<>();
		if (statistics != null) {
			description.put("statistics", statistics);
		}
		description.put("patterns", patterns);
		return description;
	}

	/**
	 * Learning statistics over all tools.
	 *
	 * @param topFailingTools the tools with the most failures
	 * @param topPatterns the most frequent error patterns
	 * @param patterns how many distinct patterns are held
	 * @param evictedPatterns how many were dropped to bound memory
	 */
	public record LearningDescriptor(List<ToolFailureStatistics> topFailingTools,
			List<ErrorPatternStatistics> topPatterns, int patterns, long evictedPatterns) {

	}

}
