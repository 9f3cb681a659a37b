package dev.agentmiddleware.tool;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The immutable attribute maps of {@link ToolInvocation}: most calls carry none, one or
 * two attributes, so the small cases avoid a {@code HashMap}.
 */
final class InvocationAttributes {

	private InvocationAttributes() {
	}

	// The attributes with one key set or replaced
	static <T> Map<InvocationAttribute<?>, Object> with(@Nullable Map<InvocationAttribute<?>, Object> attributes,
			InvocationAttribute<T> key, T value) {
		Map<InvocationAttribute<?>, Object> changed = (attributes != null) ? new HashMap<>(attributes)
				: new HashMap<>(4);
		changed.put(Objects.requireNonNull(key, "key"), key.type().cast(Objects.requireNonNull(value, "value")));
		return Collections.unmodifiableMap(changed);
	}

	// The attributes without one key
	static Map<InvocationAttribute<?>, Object> without(Map<InvocationAttribute<?>, Object> attributes,
			InvocationAttribute<?> key) {
		if (attributes.size() == 1 && attributes.containsKey(key)) {
			return Map.of();
		}
		Map<InvocationAttribute<?>, Object> copy = new HashMap<>(attributes);
		copy.remove(key);
		return frozen(copy);
	}

	static Map<InvocationAttribute<?>, Object> frozen(@Nullable Map<InvocationAttribute<?>, Object> attributes) {
		if (attributes == null || attributes.isEmpty()) {
			return Map.of();
		}
		if (attributes.size() == 1) {
			Map.Entry<InvocationAttribute<?>, Object> only = attributes.entrySet().iterator().next();
			return Map.of(only.getKey(), only.getValue());
		}
		return Collections.unmodifiableMap(new HashMap<>(attributes));
	}

}
