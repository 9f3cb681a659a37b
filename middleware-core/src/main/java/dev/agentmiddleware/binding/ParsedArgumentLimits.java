package dev.agentmiddleware.binding;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Applies the {@link ArgumentLimits} that {@link JsonArgumentBinder#bind(String)} applies
 * to JSON text to arguments that arrive already parsed, as
 * {@link JsonArgumentBinder#bindValues(Map)} receives them.
 */
final class ParsedArgumentLimits {

	private ParsedArgumentLimits() {
	}

	// The limits bind(String) applies to JSON text, applied to arguments that arrive
	// parsed: their length as compact
	// JSON, counted no further than just past the limit, and their nesting depth (the
	// arguments object is level 1).
	static void check(Map<String, ? extends @Nullable Object> arguments, ArgumentLimits limits, ArgumentErrors errors) {
		long budget = limits.maxPayloadChars();
		long length = 1;
		for (Map.Entry<String, ? extends @Nullable Object> argument : arguments.entrySet()) {
			length += jsonLength(argument.getKey()) + 2
					+ jsonLength(argument.getValue(), 2, budget - length, argument.getKey(), limits, errors);
			if (length > budget) {
				throw errors.invalid(null, "payload exceeds the limit of " + budget + " characters");
			}
		}
	}

	private static long jsonLength(@Nullable Object value, int depth, long budget, String parameter,
			ArgumentLimits limits, ArgumentErrors errors) {
		if (value instanceof CharSequence text) {
			return jsonLength(text);
		}
		if (value instanceof Map<?, ?> map) {
			checkDepth(depth, parameter, limits, errors);
			long length = 1;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				length += jsonLength(String.valueOf(entry.getKey())) + 2
						+ jsonLength(entry.getValue(), depth + 1, budget - length, parameter, limits, errors);
				if (length > budget) {
					return length;
				}
			}
			return length;
		}
		if (value instanceof Iterable<?> list) {
			checkDepth(depth, parameter, limits, errors);
			long length = 1;
			for (Object element : list) {
				length += 1 + jsonLength(element, depth + 1, budget - length, parameter, limits, errors);
				if (length > budget) {
					return length;
				}
			}
			return length;
		}
		return (value != null) ? String.valueOf(value).length() : 4;
	}

	private static void checkDepth(int depth, String parameter, ArgumentLimits limits, ArgumentErrors errors) {
		if (depth > limits.maxDepth()) {
			throw errors.tooDeep(parameter);
		}
	}

	// A string's length as a JSON string literal: quotes, and escapes for quotes,
	// backslashes and control characters
	private static long jsonLength(CharSequence text) {
		long length = text.length() + 2;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
				length += 1;
			}
			else if (c < 0x20) {
				length += 5;
			}
		}
		return length;
	}

}
