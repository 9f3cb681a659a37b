package dev.agentmiddleware.cache;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The key of one cached result within a tool's cache: the scope value (session id, principal or none) and the
 * bound arguments in a structural form. Maps compare regardless of key order (at every depth), lists and arrays
 * element by element, other values by their own {@code equals}.
 *
 * <p>Arguments that are all scalars (strings, numbers, booleans, characters, enums, {@code null}) are used as
 * they are, without a copy: the invocation's argument map is unmodifiable and compares structurally. Containers
 * are copied deeply into unmodifiable {@code HashMap}s, {@code HashSet}s and lists (arrays become lists), so that
 * a caller who later changes its own collection cannot corrupt the cache. The hash is computed once.
 */
final class CacheKey {

	private final @Nullable String scope;

	private final Map<String, @Nullable Object> arguments;

	private final int hash;

	private CacheKey(@Nullable String scope, Map<String, @Nullable Object> arguments) {
		this.scope = scope;
		this.arguments = arguments;
		this.hash = 31 * Objects.hashCode(scope) + arguments.hashCode();
	}

	static CacheKey of(@Nullable String scope, Map<String, @Nullable Object> arguments) {
		return new CacheKey(scope, allScalar(arguments) ? arguments : canonicalMap(arguments));
	}

	/**
	 * The arguments in structural form, as the invalidation predicates see them.
	 * @return the unmodifiable arguments
	 */
	Map<String, @Nullable Object> arguments() {
		return this.arguments;
	}

	static Map<String, @Nullable Object> canonicalArguments(Map<String, ?> arguments) {
		return canonicalMap(arguments);
	}

	private static boolean allScalar(Map<String, @Nullable Object> arguments) {
		for (Object value : arguments.values()) {
			if (!isScalar(value)) {
				return false;
			}
		}
		return true;
	}

	private static boolean isScalar(@Nullable Object value) {
		return value == null || value instanceof String || value instanceof Number || value instanceof Boolean
				|| value instanceof Character || value instanceof Enum<?>;
	}

	private static <K> Map<K, @Nullable Object> canonicalMap(Map<K, ?> map) {
		Map<K, @Nullable Object> copy = new HashMap<>((int) (map.size() / 0.75f) + 1);
		for (Map.Entry<K, ?> entry : map.entrySet()) {
			copy.put(entry.getKey(), canonical(entry.getValue()));
		}
		return Collections.unmodifiableMap(copy);
	}

	private static @Nullable Object canonical(@Nullable Object value) {
		if (isScalar(value)) {
			return value;
		}
		if (value instanceof Map<?, ?> map) {
			return canonicalMap(map);
		}
		if (value instanceof Set<?> set) {
			Set<@Nullable Object> copy = new HashSet<>((int) (set.size() / 0.75f) + 1);
			for (Object element : set) {
				copy.add(canonical(element));
			}
			return Collections.unmodifiableSet(copy);
		}
		if (value instanceof Collection<?> collection) {
			// Lists, and collections without structural equals (such as ArrayDeque), compare element by element.
			List<@Nullable Object> copy = new ArrayList<>(collection.size());
			for (Object element : collection) {
				copy.add(canonical(element));
			}
			return Collections.unmodifiableList(copy);
		}
		if (value.getClass().isArray()) {
			int length = Array.getLength(value);
			List<@Nullable Object> copy = new ArrayList<>(length);
			for (int i = 0; i < length; i++) {
				copy.add(canonical(Array.get(value, i)));
			}
			return Collections.unmodifiableList(copy);
		}
		return value;
	}


	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof CacheKey key && this.hash == key.hash && Objects.equals(this.scope, key.scope)
				&& this.arguments.equals(key.arguments);
	}

	@Override
	public int hashCode() {
		return this.hash;
	}

	@Override
	public String toString() {
		// Argument values may be secrets: show only their names.
		return "CacheKey[scope=" + ((this.scope != null) ? "(set)" : "none") + ", arguments="
				+ this.arguments.keySet() + "]";
	}

}
