package dev.agentmiddleware.binding;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.PropertyBindingException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Words the {@link InvalidToolArgumentsException}s of one tool's
 * {@link JsonArgumentBinder}: names the parameter by its index ({@code -1} for the
 * arguments object itself), renders where inside a value the problem is, and says what
 * was wrong in its own words, never quoting argument values or the parser's message.
 */
final class ArgumentErrors {

	private static final int MAX_ECHOED_NAME_LENGTH = 64;

	private final String toolName;

	private final String[] names;

	private final Map<String, Integer> indexByName;

	private final JavaType[] types;

	private final ObjectReader[] readers;

	private final String[] expectations;

	private final String knownNames;

	private final int maxDepth;

	ArgumentErrors(String toolName, String[] names, Map<String, Integer> indexByName, JavaType[] types,
			ObjectReader[] readers, String[] expectations, int maxDepth) {
		this.toolName = toolName;
		this.names = names;
		this.indexByName = indexByName;
		this.types = types;
		this.readers = readers;
		this.expectations = expectations;
		this.knownNames = (names.length > 0) ? "expected one of: " + String.join(", ", names)
				: "this tool takes no arguments";
		this.maxDepth = maxDepth;
	}

	InvalidToolArgumentsException unknown(String name) {
		return invalid(echoable(name), "is not a parameter of this tool; " + this.knownNames);
	}

	// The name is echoed only when it is a parameter: deeper keys are data.
	InvalidToolArgumentsException tooDeep(String parameter) {
		return invalid(this.indexByName.containsKey(parameter) ? parameter : null,
				"nested deeper than " + this.maxDepth + " levels");
	}

	InvalidToolArgumentsException overLimit(StreamConstraintsException ex, int current) {
		String message = String.valueOf(ex.getOriginalMessage());
		if (message.contains("nesting depth")) {
			return invalid(nameOf(current), "nested deeper than " + this.maxDepth + " levels");
		}
		return invalid(nameOf(current), "contains a number, string or property name longer than allowed");
	}

	InvalidToolArgumentsException outOfRange(@Nullable Class<?> target, String where, int current) {
		String range = integerRange(target);
		return invalid(nameOf(current), where + "is out of range: expected "
				+ ((range != null) ? "an integer from " + range : expectationOf(current)));
	}

	private static @Nullable String integerRange(@Nullable Class<?> type) {
		if (type == Integer.class || type == int.class) {
			return Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
		}
		if (type == Long.class || type == long.class) {
			return Long.MIN_VALUE + " to " + Long.MAX_VALUE;
		}
		if (type == Short.class || type == short.class) {
			return Short.MIN_VALUE + " to " + Short.MAX_VALUE;
		}
		if (type == Byte.class || type == byte.class) {
			return Byte.MIN_VALUE + " to " + Byte.MAX_VALUE;
		}
		return null;
	}

	// Renders where inside a parameter's value the parser stood, such as "at
	// 'origin.lat': ", from its contexts.
	static String where(@Nullable TokenStreamContext context) {
		List<String> segments = new java.util.ArrayList<>();
		for (TokenStreamContext each = context; each != null && each.getNestingDepth() > 1; each = each.getParent()) {
			if (each.inArray()) {
				segments.add(0, "[" + Math.max(0, each.getCurrentIndex()) + "]");
			}
			else if (each.currentName() != null) {
				segments.add(0, "." + echoable(each.currentName()));
			}
		}
		if (segments.isEmpty()) {
			return "";
		}
		String path = String.join("", segments);
		return "at '" + (path.startsWith(".") ? path.substring(1) : path) + "': ";
	}

	InvalidToolArgumentsException malformed(StreamReadException ex, Stage stage, int current) {
		String message = String.valueOf(ex.getOriginalMessage());
		if (message.startsWith("Duplicate Object property")) {
			return duplicate(message, current);
		}
		String problem;
		if (stage == Stage.BEFORE_ARGUMENTS) {
			problem = "expected a JSON object";
		}
		else if (stage == Stage.AFTER_ARGUMENTS) {
			problem = "unexpected content after the arguments object";
		}
		else {
			problem = describeSyntaxError(ex, message);
		}
		return malformed(ex.getLocation(), problem);
	}

	// The parser refuses a repeated key at any depth; at the top level the key is a
	// parameter given twice.
	private InvalidToolArgumentsException duplicate(String message, int current) {
		if (current >= 0) {
			return invalid(this.names[current], "contains a duplicate key");
		}
		int open = message.indexOf('"');
		int close = message.indexOf('"', open + 1);
		String name = (open >= 0 && close > open) ? message.substring(open + 1, close) : "";
		if (this.indexByName.containsKey(name)) {
			return invalid(name, "is given more than once");
		}
		return unknown(name);
	}

	// Says what was wrong in our own words: the parser's message may quote the input.
	private static String describeSyntaxError(StreamReadException ex, String message) {
		if (ex instanceof UnexpectedEndOfInputException) {
			return "unexpected end of input; the JSON is cut short";
		}
		if (message.contains("double-quote to start property name")) {
			return "expected a property name in double quotes";
		}
		if (message.contains("colon to separate property name and value")) {
			return "expected ':' after a property name";
		}
		if (message.contains("comma to separate Object entries")) {
			return "expected ',' or '}' after a property value";
		}
		if (message.contains("comma to separate Array entries")) {
			return "expected ',' or ']' after an array element";
		}
		if (message.contains("expected a value") || message.startsWith("Unrecognized token")
				|| message.startsWith("Non-standard token")) {
			return "expected a value: a string in double quotes, a number, an object, an array, true, false or null";
		}
		if (message.startsWith("Unexpected close marker")) {
			return "a closing bracket does not match";
		}
		if (message.startsWith("Illegal unquoted character")) {
			return "control characters in strings must be escaped";
		}
		if (message.startsWith("Invalid numeric value")) {
			return "invalid number";
		}
		return "invalid JSON";
	}

	InvalidToolArgumentsException malformed(@Nullable TokenStreamLocation location, String problem) {
		if (location != null && location.getLineNr() > 0 && location.getColumnNr() > 0) {
			return invalid(null, "malformed JSON at line " + location.getLineNr() + ", column " + location.getColumnNr()
					+ ": " + problem);
		}
		return invalid(null, "malformed JSON: " + problem);
	}

	/**
	 * What a value that could not be read tells the model, the same whether it came as
	 * JSON or as a value: over a limit, an integer out of range, of the wrong kind, or
	 * otherwise unreadable. A syntax error of JSON text is {@link #malformed}'s to
	 * report.
	 * @param ex the failure
	 * @param parser the parser at the failure
	 * @param current the index of the argument being read, or {@code -1}
	 * @return the exception to throw
	 */
	InvalidToolArgumentsException unreadable(JacksonException ex, JsonParser parser, int current) {
		if (ex instanceof StreamConstraintsException overLimit) {
			return overLimit(overLimit, current);
		}
		if (ex instanceof InputCoercionException coercion) {
			return outOfRange(coercion.getTargetType(), where(parser.streamReadContext()), current);
		}
		if (ex instanceof DatabindException databind) {
			return mismatch(databind, parser, current);
		}
		return invalid(nameOf(current), "could not be read: expected " + expectationOf(current));
	}

	InvalidToolArgumentsException mismatch(DatabindException ex, JsonParser parser, int current) {
		if (current < 0) {
			return invalid(null, "could not be read");
		}
		List<JacksonException.Reference> path = ex.getPath();
		if (ex instanceof PropertyBindingException unknown) {
			String prefix = at(path.subList(0, Math.max(0, path.size() - 1)));
			String known = unknown.getKnownPropertyIds()
				.stream()
				.map(String::valueOf)
				.sorted()
				.collect(Collectors.joining(", "));
			return invalid(this.names[current], prefix + "'" + echoable(String.valueOf(unknown.getPropertyName()))
					+ "' is not a property" + (known.isEmpty() ? "" : "; expected one of: " + known));
		}
		String prefix = at(path);
		if (ex instanceof ValueInstantiationException instantiation) {
			return invalid(this.names[current],
					prefix + "the value is not a valid " + instantiation.getType().getRawClass().getSimpleName());
		}
		JavaType expected = this.types[current];
		JsonToken token = parser.currentToken();
		if (ex instanceof MismatchedInputException mismatch) {
			if (!path.isEmpty() && mismatch.getTargetType() != null) {
				expected = this.readers[current].getTypeFactory().constructType(mismatch.getTargetType());
			}
			if (mismatch.getCurrentToken() != null) {
				token = mismatch.getCurrentToken();
			}
			if (token == JsonToken.VALUE_NUMBER_INT && integerRange(expected.getRawClass()) != null) {
				// An integer given for an integer type is only refused when it does not
				// fit
				return outOfRange(expected.getRawClass(), prefix, current);
			}
		}
		return invalid(this.names[current], prefix + JsonKinds.mismatch(expected, token));
	}

	// Renders where inside a value binding failed, such as "at 'origin.lat': "; map keys
	// are data, so not shown.
	private static String at(List<JacksonException.Reference> path) {
		if (path.isEmpty()) {
			return "";
		}
		StringBuilder where = new StringBuilder();
		for (JacksonException.Reference reference : path) {
			Object from = reference.from();
			boolean inMap = (from instanceof Map<?, ?>)
					|| (from instanceof Class<?> type && Map.class.isAssignableFrom(type));
			if (reference.getIndex() >= 0) {
				where.append('[').append(reference.getIndex()).append(']');
			}
			else if (inMap) {
				where.append("[key]");
			}
			else if (reference.getPropertyName() != null) {
				if (!where.isEmpty()) {
					where.append('.');
				}
				where.append(echoable(reference.getPropertyName()));
			}
		}
		return where.isEmpty() ? "" : "at '" + where + "': ";
	}

	private static String echoable(String name) {
		return (name.length() <= MAX_ECHOED_NAME_LENGTH) ? name : name.substring(0, MAX_ECHOED_NAME_LENGTH) + "...";
	}

	@Nullable String nameOf(int index) {
		return (index >= 0) ? this.names[index] : null;
	}

	String expectationOf(int index) {
		return (index >= 0) ? this.expectations[index] : "a JSON object of arguments";
	}

	InvalidToolArgumentsException invalid(@Nullable String parameter, String problem) {
		return new InvalidToolArgumentsException(this.toolName, parameter, problem);
	}

	/** Where the parser stood when the JSON text turned out malformed. */
	enum Stage {

		BEFORE_ARGUMENTS, IN_ARGUMENTS, AFTER_ARGUMENTS

	}

}
