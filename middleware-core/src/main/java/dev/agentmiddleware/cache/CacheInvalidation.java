package dev.agentmiddleware.cache;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An invalidation of a {@link ToolResultCache} in a form that can travel to other
 * instances: all tools, one tool, or one tool's entries for one set of arguments, named
 * by the SHA-256 of their canonical JSON ({@link ArgumentsFingerprint#sha256()})
 * (argument values, which may be secrets, never leave the instance). An invalidation by
 * predicate travels as its whole tool, because a predicate cannot travel and another
 * instance may hold entries this one does not. <pre>{@code
 * ToolResultCache results = ToolResultCache.builder()
 *     .onInvalidation((invalidation) -> broadcaster.publish(invalidation))
 *     .build();
 * // on another instance:
 * otherResults.apply(invalidation);
 * }</pre>
 *
 * @param toolName the tool, or {@code null} for every tool
 * @param argumentsHash the SHA-256 (hex) of the canonical JSON of the arguments, or
 * {@code null} for all of the tool's entries; only with a tool
 */
public record CacheInvalidation(@Nullable String toolName, @Nullable String argumentsHash) {

	/**
	 * Validates the invalidation.
	 * @throws IllegalArgumentException if there is a hash without a tool
	 */
	public CacheInvalidation {
		if (toolName == null && argumentsHash != null) {
			throw new IllegalArgumentException("argumentsHash needs a toolName");
		}
	}

	/**
	 * Every entry of every tool.
	 * @return the invalidation
	 */
	public static CacheInvalidation allTools() {
		return new CacheInvalidation(null, null);
	}

	/**
	 * Every entry of one tool.
	 * @param toolName the tool
	 * @return the invalidation
	 */
	public static CacheInvalidation tool(String toolName) {
		return new CacheInvalidation(Objects.requireNonNull(toolName, "toolName"), null);
	}

	/**
	 * One tool's entries for one set of arguments.
	 * @param toolName the tool
	 * @param argumentsHash the SHA-256 (hex) of the arguments' canonical JSON
	 * @return the invalidation
	 */
	public static CacheInvalidation arguments(String toolName, String argumentsHash) {
		return new CacheInvalidation(Objects.requireNonNull(toolName, "toolName"),
				Objects.requireNonNull(argumentsHash, "argumentsHash"));
	}

}
