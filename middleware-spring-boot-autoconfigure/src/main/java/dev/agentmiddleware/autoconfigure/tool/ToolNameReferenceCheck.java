package dev.agentmiddleware.autoconfigure.tool;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the tool names configuration refers to ({@link ToolNameReferences}) against the
 * registered tools, in canonical form: a name that matches no tool fails startup with an
 * {@link InvalidToolConfigurationException}, or only logs a warning when
 * {@code agent.middleware.fail-on-unknown-tool} is {@code false}. Run by the
 * {@link AgentToolRegistry} once startup has registered every tool.
 */
final class ToolNameReferenceCheck {

	// Under the registry's name, where the warning has always been logged.
	private static final Logger logger = LoggerFactory.getLogger(AgentToolRegistry.class);

	private final boolean failOnUnknownTool;

	ToolNameReferenceCheck(boolean failOnUnknownTool) {
		this.failOnUnknownTool = failOnUnknownTool;
	}

	/**
	 * Checks every referenced name.
	 * @param registered the registered tool names, sorted
	 * @param references the names configuration refers to
	 * @throws InvalidToolConfigurationException for the first name that matches no tool,
	 * when failing on them
	 */
	void check(List<String> registered, Collection<ToolNameReferences> references) {
		Set<String> canonicalNames = new HashSet<>();
		registered.forEach((name) -> canonicalNames.add(ToolNames.canonical(name)));
		for (ToolNameReferences reference : references) {
			for (String name : reference.toolNames()) {
				if (canonicalNames.contains(ToolNames.canonical(name))) {
					continue;
				}
				String property = reference.propertyOf(name);
				String action = NameSuggestions.didYouMean(name, registered) + "Registered tools: "
						+ (registered.isEmpty() ? "none" : String.join(", ", registered))
						+ ". Correct the name, or set agent.middleware.fail-on-unknown-tool=false to only warn.";
				if (this.failOnUnknownTool) {
					throw new InvalidToolConfigurationException(property, "no tool is named '" + name + "'", action);
				}
				logger.warn("Configuration property '{}' names no tool. {}", property, action);
			}
		}
	}

}
