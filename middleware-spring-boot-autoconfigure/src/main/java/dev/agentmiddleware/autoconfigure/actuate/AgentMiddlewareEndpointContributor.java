package dev.agentmiddleware.autoconfigure.actuate;

import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;

import org.jspecify.annotations.Nullable;

/**
 * Adds a feature's section to the {@code agentmiddleware} actuator endpoint: a global section (statistics, pending
 * work, an audit tail) and, for each tool, the feature's effective settings for that tool.
 *
 * <p>Every bean of this type contributes, in {@code @Order}/{@code Ordered} order. Its {@link #name()} is the key of
 * its section: under {@code sections} in the overview, and under {@code settings} of each tool it describes. Both
 * methods are called on every read of the endpoint, on an HTTP (or JMX) thread, so they must be thread-safe, cheap
 * and return a snapshot: records, maps, lists, strings, numbers, enums or {@code java.time} values that Jackson can
 * write. They must never return argument values, results or secrets, only configuration, counts and normalised or
 * redacted text.
 * <pre>{@code
 * @Bean
 * AgentMiddlewareEndpointContributor cacheEndpointContributor(ToolResultCache results, CacheMiddleware cache) {
 *     return new AgentMiddlewareEndpointContributor() {
 *
 *         @Override
 *         public String name() {
 *             return "cache";
 *         }
 *
 *         @Override
 *         public Object describe() {
 *             return results.statistics(); // hits, misses, evictions and size per tool
 *         }
 *
 *         @Override
 *         public @Nullable Object describeTool(RegisteredTool tool) {
 *             return cache.policies().get(tool.name()); // null for a tool that is not cached
 *         }
 *
 *     };
 * }
 * }</pre>
 * A feature declares its contributor in its own auto-configuration, in a nested configuration guarded by
 * {@code @ConditionalOnClass(Endpoint.class)}, so that it costs nothing without Actuator. A middleware with a
 * policy per tool uses {@link PolicyEndpointContributor}, as the built-ins do (beans
 * {@code cacheEndpointContributor}, {@code retryEndpointContributor} and so on, which a bean of the same name
 * replaces).
 */
public interface AgentMiddlewareEndpointContributor {

	/**
	 * The key of this contributor's sections, unique among contributors, in kebab case, such as {@code cache},
	 * {@code rate-limit}, {@code approval} or {@code learning}.
	 * @return the name
	 */
	String name();

	/**
	 * The global section, such as statistics over all tools.
	 * @return the section, or {@code null} for none
	 */
	@Nullable Object describe();

	/**
	 * This feature's part of one tool's description, typically its effective settings for the tool (defaults merged
	 * with the tool's overrides) when it applies to the tool.
	 * @param tool the tool
	 * @return the part, or {@code null} when the feature has nothing to say about the tool (it does not apply)
	 */
	default @Nullable Object describeTool(RegisteredTool tool) {
		return null;
	}

}
