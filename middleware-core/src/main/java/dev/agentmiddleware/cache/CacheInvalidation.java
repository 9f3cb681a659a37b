package dev.agentmiddleware.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An invalidation of a {@link ToolResultCache} in a form that can travel to other instances: all tools, one tool, or
 * one tool's entries for one set of arguments, named by a SHA-256 hash of their canonical JSON (argument values,
 * which may be secrets, never leave the instance). An invalidation by predicate travels as its whole tool, because a
 * predicate cannot travel and another instance may hold entries this one does not.
 * <pre>{@code
 * ToolResultCache results = ToolResultCache.builder()
 *     .onInvalidation((invalidation) -> broadcaster.publish(invalidation))
 *     .build();
 * // on another instance:
 * otherResults.apply(invalidation);
 * }</pre>
 *
 * @param toolName the tool, or {@code null} for every tool
 * @param argumentsHash the SHA-256 (hex) of the canonical JSON of the arguments, or {@code null} for all of the
 * tool's entries; only with a tool
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

	static String hash(String canonicalJson) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(canonicalJson.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

}
