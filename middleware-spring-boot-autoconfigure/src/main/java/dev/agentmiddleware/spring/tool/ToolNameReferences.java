package dev.agentmiddleware.spring.tool;

import java.util.Collection;

/**
 * Tool names that configuration refers to, such as the keys of {@code agent.middleware.cache.tools}. After startup
 * the {@link AgentToolRegistry} checks every name against the registered tools, so that a typo fails startup (or
 * logs a warning, per {@code agent.middleware.fail-on-unknown-tool}) instead of silently configuring nothing.
 * Names are compared in canonical form ({@link ToolNames#canonical}), so {@code GET-WEATHER} from an environment
 * variable matches {@code get_weather}.
 * <pre>{@code
 * @Bean
 * ToolNameReferences cacheToolNames(ToolCacheProperties properties) {
 *     return ToolNameReferences.of("agent.middleware.cache.tools", properties.getTools().keySet());
 * }
 * }</pre>
 */
public interface ToolNameReferences {

	/**
	 * The configuration property the names come from, for the error message.
	 * @return the property name
	 */
	String property();

	/**
	 * The tool names referred to.
	 * @return the names, as written in configuration
	 */
	Collection<String> toolNames();

	/**
	 * Creates references.
	 * @param property the property the names come from
	 * @param toolNames the names
	 * @return the references
	 */
	static ToolNameReferences of(String property, Collection<String> toolNames) {
		Collection<String> names = java.util.List.copyOf(toolNames);
		return new ToolNameReferences() {

			@Override
			public String property() {
				return property;
			}

			@Override
			public Collection<String> toolNames() {
				return names;
			}

		};
	}

}
