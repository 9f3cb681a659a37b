package dev.agentmiddleware.cache;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The structural form of a call's arguments that the cache keys on, for other features that must recognise "the
 * same arguments" the same way (such as repeated-call detection): maps compare regardless of key order at every
 * depth, lists and arrays element by element.
 * <pre>{@code
 * CanonicalArguments.of(Map.of("b", 1, "a", List.of(1, 2))).equals(CanonicalArguments.of(reordered)); // true
 * }</pre>
 */
public final class CanonicalArguments {

	private CanonicalArguments() {
	}

	/**
	 * The canonical form of arguments.
	 * @param arguments the arguments by parameter name
	 * @return an unmodifiable deep copy that compares structurally
	 */
	public static Map<String, @Nullable Object> of(Map<String, ?> arguments) {
		return CacheKey.canonicalArguments(arguments);
	}

}
