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
 * The key of one cached result within a tool's cache: the scope value (session id,
 * principal or none) and the {@link ArgumentsFingerprint} of the bound arguments, so that
 * two calls whose arguments serialise to the same canonical JSON share an entry even when
 * an argument's class (a JavaBean DTO, say) has no {@code equals}. Arguments Jackson
 * cannot serialise fall back to comparing structurally (maps regardless of key order,
 * lists and arrays element by element, other values by their own {@code equals}).
 *
 * Arguments that are all scalars need no fingerprint: for them equal values and equal
 * JSON coincide (a parameter has one type), so they are compared as they are.
 *
 * <p>
 * Beside the fingerprint, the key keeps the arguments in structural form for the
 * invalidation predicates: arguments that are all scalars (strings, numbers, booleans,
 * characters, enums, {@code null}) as they are, without a copy (the invocation's argument
 * map is unmodifiable); containers copied deeply into unmodifiable {@code HashMap}s,
 * {@code HashSet}s and lists (arrays become lists), so that a caller who later changes
 * its own collection cannot corrupt the cache (a key made only to look an entry up skips
 * the copy: its fingerprint decides). The hash is computed once.
 */
final class CacheKey {

	private final @Nullable String scope;

	private final @Nullable ArgumentsFingerprint fingerprint;

	private final Map<String, @Nullable Object> arguments;

	private final int hash;

	private CacheKey(@Nullable String scope, @Nullable ArgumentsFingerprint fingerprint,
			Map<String, @Nullable Object> arguments) {
		this.scope = scope;
		this.fingerprint = fingerprint;
		this.arguments = arguments;
		this.hash = 31 * Objects.hashCode(scope)
				+ ((fingerprint != null) ? fingerprint.hashCode() : arguments.hashCode());
	}

	/**
	 * The key to look an entry up with; valid until this thread computes its next
	 * fingerprint, so store only {@link #stored()}.
	 */
	static CacheKey of(@Nullable String scope, Map<String, @Nullable Object> arguments) {
		// Scalars serialise alike exactly when they are equal, so they skip the
		// fingerprint (the hit path stays cheap)
		if (allScalar(arguments)) {
			return new CacheKey(scope, null, arguments);
		}
		ArgumentsFingerprint fingerprint = ArgumentsFingerprint.probe(arguments);
		// With a fingerprint, equality is the fingerprint's: a key that only looks up
		// needs no copy of the arguments
		// and no copy of the canonical JSON; stored() makes the copies
		return new CacheKey(scope, fingerprint, (fingerprint != null) ? arguments : canonicalMap(arguments));
	}

	/**
	 * The key to store: this key, with the arguments copied deeply (see the class
	 * description) where they were not yet.
	 * @return a key equal to this one that a caller's later changes cannot corrupt
	 */
	CacheKey stored() {
		if (this.fingerprint == null) {
			return this;
		}
		return new CacheKey(this.scope, this.fingerprint.detached(), canonicalMap(this.arguments));
	}

	/**
	 * This key in another scope: this key itself when the scope is the same, else a key
	 * sharing its (stored) arguments; for a key {@link #stored()} before.
	 */
	CacheKey withScope(@Nullable String scope) {
		return Objects.equals(scope, this.scope) ? this : new CacheKey(scope, this.fingerprint, this.arguments);
	}

	/**
	 * Whether this key holds the given arguments, in the forms
	 * {@link ArgumentsFingerprint#ofSerializable} and {@link #canonicalArguments} made of
	 * them.
	 */
	boolean hasArguments(@Nullable ArgumentsFingerprint fingerprint, Map<String, @Nullable Object> arguments) {
		return (this.fingerprint != null && fingerprint != null) ? this.fingerprint.equals(fingerprint)
				: this.arguments.equals(arguments);
	}

	/**
	 * The stable fingerprint of this key's arguments, as other instances compute it for
	 * the same arguments.
	 * @return the SHA-256 of the canonical JSON of the arguments
	 */
	String argumentsSha256() {
		return ((this.fingerprint != null) ? this.fingerprint : ArgumentsFingerprint.of(this.arguments)).sha256();
	}

	/**
	 * Whether this key's arguments have this {@link ArgumentsFingerprint#sha256()
	 * SHA-256} of their canonical JSON, as an invalidation from another instance names
	 * them; a key whose arguments have no JSON form never matches.
	 */
	boolean hasArgumentsHash(String hash) {
		ArgumentsFingerprint fingerprint = (this.fingerprint != null) ? this.fingerprint
				: ArgumentsFingerprint.ofSerializable(this.arguments);
		return fingerprint != null && fingerprint.sha256().equals(hash);
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

	/**
	 * Arguments as a caller sent them, to keep as a key: JSON text as it is, a map of
	 * JSON values copied deeply (as the arguments of a stored key), so that a caller who
	 * later changes its own map cannot make it match others.
	 */
	static Object copyOfAsSent(Object asSent) {
		return (asSent instanceof Map<?, ?> map) ? canonicalMap(map) : asSent;
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
			// Lists, and collections without structural equals (such as ArrayDeque),
			// compare element by element.
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
				&& key.hasArguments(this.fingerprint, this.arguments);
	}

	@Override
	public int hashCode() {
		return this.hash;
	}

	@Override
	public String toString() {
		// Argument values may be secrets: show only their names.
		return "CacheKey[scope=" + ((this.scope != null) ? "(set)" : "none") + ", arguments=" + this.arguments.keySet()
				+ "]";
	}

}
