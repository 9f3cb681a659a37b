package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;

import java.util.Collection;
import java.util.List;

/**
 * Tool names that configuration refers to, such as the keys of
 * {@code agent.middleware.cache.tools}. After startup the {@link AgentToolRegistry}
 * checks every name against the registered tools, so that a typo fails startup (or logs a
 * warning, per {@code agent.middleware.fail-on-unknown-tool}) instead of silently
 * configuring nothing. Names are compared in canonical form
 * ({@link ToolNames#canonical}), so {@code GET-WEATHER} from an environment variable
 * matches {@code get_weather}. The properties of every built-in
 * ({@link dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties}) are references
 * themselves; other configuration declares a bean: <pre>{@code
 * &#64;Bean
 * ToolNameReferences auditToolNames(AuditProperties properties) {
 *     return ToolNameReferences.of("acme.audit.tools", properties.getTools().keySet());
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
	 * The property that names one of the tools, as the user wrote it:
	 * {@code property().name} for the keys of a map, such as
	 * {@code agent.middleware.cache.tools.lookup-ordr}.
	 * @param toolName one of {@link #toolNames()}
	 * @return the property
	 */
	default String propertyOf(String toolName) {
		return property() + "." + toolName;
	}

	/**
	 * Creates references to the elements of a list property, each named at its index,
	 * such as {@code agent.middleware.approval.sensitive-tools[0]}. <pre>{@code
	 * ToolNameReferences.ofList("agent.middleware.approval.sensitive-tools", properties.getSensitiveTools());
	 * }</pre>
	 * @param property the list property
	 * @param toolNames its elements
	 * @return the references
	 */
	static ToolNameReferences ofList(String property, List<String> toolNames) {
		return new PropertyToolNames(property, toolNames, true);
	}

	/**
	 * Creates references to the keys of a map property.
	 * @param property the property the names come from
	 * @param toolNames the names
	 * @return the references
	 */
	static ToolNameReferences of(String property, Collection<String> toolNames) {
		return new PropertyToolNames(property, List.copyOf(toolNames), false);
	}

}
