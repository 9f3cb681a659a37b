package dev.agentmiddleware.thread;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Deep, unmodifiable copies of JSON-friendly values, refusing anything a JSON store could
 * not keep.
 */
final class JsonValues {

	private JsonValues() {
	}

	static Map<String, @Nullable Object> copyOf(Map<String, ? extends @Nullable Object> values) {
		Map<String, @Nullable Object> copy = new LinkedHashMap<>();
		values.forEach((key, value) -> copy.put(key, copyValue(key, value)));
		return Collections.unmodifiableMap(copy);
	}

	private static @Nullable Object copyValue(String path, @Nullable Object value) {
		if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
			return value;
		}
		if (value instanceof Map<?, ?> map) {
			Map<String, @Nullable Object> copy = new LinkedHashMap<>();
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				if (!(entry.getKey() instanceof String key)) {
					throw new IllegalArgumentException("Thread metadata '" + path + "' has a key that is not a string");
				}
				copy.put(key, copyValue(path + "." + key, entry.getValue()));
			}
			return Collections.unmodifiableMap(copy);
		}
		if (value instanceof List<?> list) {
			List<@Nullable Object> copy = new ArrayList<>(list.size());
			for (int i = 0; i < list.size(); i++) {
				copy.add(copyValue(path + "[" + i + "]", list.get(i)));
			}
			return Collections.unmodifiableList(copy);
		}
		throw new IllegalArgumentException("Thread metadata '" + path + "' is a " + value.getClass().getName()
				+ "; only maps, lists, strings, numbers, booleans and null can be stored");
	}

}
