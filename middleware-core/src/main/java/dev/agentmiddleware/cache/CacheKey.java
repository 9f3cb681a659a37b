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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The key of one cached result within a tool's cache: the scope value (session id, principal or none) and the
 * canonical JSON of the bound arguments: map entries and object properties sorted by name at every depth, so that
 * two calls whose arguments serialise to the same JSON share an entry even when an argument's class (a JavaBean
 * DTO, say) has no {@code equals}. Arguments Jackson cannot serialise fall back to comparing structurally (maps
 * regardless of key order, lists and arrays element by element, other values by their own {@code equals}).
 *
 * Arguments that are all scalars need no JSON: for them equal values and equal JSON coincide (a parameter has one
 * type), so they are compared as they are.
 *
 * <p>Beside the JSON, the key keeps the arguments in structural form for the invalidation predicates: arguments
 * that are all scalars (strings, numbers, booleans, characters, enums, {@code null}) as they are, without a copy
 * (the invocation's argument map is unmodifiable); containers copied deeply into unmodifiable {@code HashMap}s,
 * {@code HashSet}s and lists (arrays become lists), so that a caller who later changes its own collection cannot
 * corrupt the cache. The hash is computed once.
 */
final class CacheKey {

	private static final JsonMapper CANONICAL_JSON = JsonMapper.builder()
		.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
		.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
		.disable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST)
		.disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
		.build();

	private final @Nullable String scope;

	private final @Nullable String json;

	private final Map<String, @Nullable Object> arguments;

	private final int hash;

	private CacheKey(@Nullable String scope, @Nullable String json, Map<String, @Nullable Object> arguments) {
		this.scope = scope;
		this.json = json;
		this.arguments = arguments;
		this.hash = 31 * Objects.hashCode(scope) + ((json != null) ? json.hashCode() : arguments.hashCode());
	}

	static CacheKey of(@Nullable String scope, Map<String, @Nullable Object> arguments) {
		// Scalars serialise alike exactly when they are equal, so they skip the JSON (the hit path stays cheap)
		if (allScalar(arguments)) {
			return new CacheKey(scope, null, arguments);
		}
		return new CacheKey(scope, canonicalJson(arguments), canonicalMap(arguments));
	}

	/**
	 * The arguments as JSON with map entries and properties sorted by name at every depth.
	 * @return the JSON, or {@code null} if the arguments cannot be serialised
	 */
	static @Nullable String canonicalJson(Map<String, ?> arguments) {
		try {
			return CANONICAL_JSON.writeValueAsString(arguments);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * Whether this key holds the given arguments, in the forms {@link #canonicalJson} and
	 * {@link #canonicalArguments} made of them.
	 */
	boolean hasArguments(@Nullable String json, Map<String, @Nullable Object> arguments) {
		return (this.json != null && json != null) ? this.json.equals(json) : this.arguments.equals(arguments);
	}

	/**
	 * Whether this key's arguments have this {@link CacheInvalidation#hash hash} of their canonical JSON; a key
	 * whose arguments have no JSON form never matches.
	 */
	boolean hasArgumentsHash(String hash) {
		String json = (this.json != null) ? this.json : canonicalJson(this.arguments);
		return json != null && CacheInvalidation.hash(json).equals(hash);
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
				&& key.hasArguments(this.json, this.arguments);
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
