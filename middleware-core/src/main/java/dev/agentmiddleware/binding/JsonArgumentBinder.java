package dev.agentmiddleware.binding;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import dev.agentmiddleware.tool.ToolArguments;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.PropertyBindingException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Binds the JSON arguments of a call, as a model or an MCP client sends them, to the Java types of a tool's
 * parameters. Built once per tool; immutable and thread-safe.
 *
 * <p>{@link #bind(String)} reads the payload in one streaming pass: each top-level property is looked up among
 * the parameters and its value is read straight into the parameter's generic type by the mapper. The result is
 * an unmodifiable map in parameter declaration order, whatever the order of the JSON properties:
 * <ul>
 * <li>a parameter that is not given, or given as {@code null}, maps to {@code null} ({@code Optional.empty()}
 * and its primitive variants for {@code Optional} parameters) unless it is
 * {@linkplain ToolParameter#isRequired() required}; primitive parameters are always required, so a primitive
 * never silently becomes {@code 0} or {@code false};</li>
 * <li>{@code null}, blank, {@code "null"} and {@code "{}"} mean "no arguments".</li>
 * </ul>
 *
 * <p>Any other bad input fails with an {@link InvalidToolArgumentsException} that names the tool, the parameter
 * when there is one, and what was expected, such as {@code expected an integer but got a string}: malformed
 * JSON (with line and column), a payload that is not an object, a missing required parameter, a value of the
 * wrong kind, an unknown or repeated parameter, a payload over {@link ArgumentLimits#maxPayloadChars()}
 * characters or nested deeper than {@link ArgumentLimits#maxDepth()} levels. Messages never contain argument
 * values, which may be secrets, and never the parser's own wording.
 *
 * <p>Values are read with the mapper's configuration (modules, coercions such as {@code "3"} to {@code 3}),
 * tightened where leniency would lose or invent data: {@code 2.5} is not an integer, {@code null} is not a
 * primitive, a number is not an enum constant, and an object with a property its type does not know is
 * rejected (the generated schema says {@code "additionalProperties": false}). An integer too large or too small
 * for its type ({@code 2147483648} for an {@code int}) is refused naming the parameter and the allowed range, not
 * clamped or wrapped. Duplicate keys are refused at every depth, whatever the mapper's setting: a parameter
 * given twice is {@code is given more than once}, a key repeated inside a value {@code contains a duplicate key};
 * no path silently keeps the first or the last.
 * <pre>{@code
 * JsonArgumentBinder binder = new JsonArgumentBinder("get_weather",
 *         List.of(new ToolParameter("city", String.class, "City name", true),
 *                 new ToolParameter("days", int.class, "Days to forecast", true)),
 *         JsonMapper.shared(), ArgumentLimits.DEFAULTS);
 * Map<String, Object> arguments = binder.bind("{\"days\":3,\"city\":\"Lisbon\"}"); // {city=Lisbon, days=3}
 * }</pre>
 */
public final class JsonArgumentBinder {

	private static final int MAX_ECHOED_NAME_LENGTH = 64;

	private final String toolName;

	private final String[] names;

	private final ToolArguments.Names argumentNames;

	private final Map<String, Integer> indexByName;

	private final JavaType[] types;

	private final ObjectReader[] readers;

	private final boolean[] required;

	private final @Nullable Object[] absentValues;

	private final String[] expectations;

	private final String knownNames;

	private final ArgumentLimits limits;

	private final JsonFactory parserFactory;

	private final JsonMapper mapper;

	/**
	 * Creates a binder for one tool.
	 * @param toolName the tool, named in every error
	 * @param parameters the tool's parameters, in declaration order
	 * @param mapper the mapper that reads each value; its modules and coercion settings apply
	 * @param limits the bounds on a payload
	 * @throws IllegalArgumentException if two parameters have the same name
	 */
	public JsonArgumentBinder(String toolName, List<ToolParameter> parameters, JsonMapper mapper,
			ArgumentLimits limits) {
		this.toolName = Objects.requireNonNull(toolName, "toolName");
		Objects.requireNonNull(parameters, "parameters");
		Objects.requireNonNull(mapper, "mapper");
		this.limits = Objects.requireNonNull(limits, "limits");
		int count = parameters.size();
		this.names = new String[count];
		this.indexByName = new HashMap<>(count * 2);
		this.types = new JavaType[count];
		this.readers = new ObjectReader[count];
		this.required = new boolean[count];
		this.absentValues = new Object[count];
		this.expectations = new String[count];
		// Each value is read from the middle of the arguments object: what follows it is not trailing content
		ObjectReader strictReader = mapper.reader()
			.with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.without(DeserializationFeature.ACCEPT_FLOAT_AS_INT, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.with(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS);
		for (int i = 0; i < count; i++) {
			ToolParameter parameter = parameters.get(i);
			if (this.indexByName.putIfAbsent(parameter.name(), i) != null) {
				throw new IllegalArgumentException(
						"Tool '" + toolName + "' declares parameter '" + parameter.name() + "' twice");
			}
			this.names[i] = parameter.name();
			this.types[i] = mapper.constructType(parameter.type());
			this.readers[i] = strictReader.forType(this.types[i]);
			this.required[i] = parameter.isRequired();
			this.absentValues[i] = absentValue(this.types[i]);
			this.expectations[i] = JsonKinds.expected(this.types[i]);
		}
		this.argumentNames = ToolArguments.names(this.names);
		this.knownNames = (count > 0) ? "expected one of: " + String.join(", ", this.names)
				: "this tool takes no arguments";
		this.parserFactory = parserFactory(mapper, limits);
		this.mapper = mapper;
	}

	private static JsonFactory parserFactory(JsonMapper mapper, ArgumentLimits limits) {
		JsonFactory factory = mapper.tokenStreamFactory();
		StreamReadConstraints constraints = factory.streamReadConstraints()
			.rebuild()
			.maxNestingDepth(limits.maxDepth())
			.build();
		// Buffers come from a per-thread pool: the default shared pool costs two contended updates per call.
		JsonFactoryBuilder builder = factory.rebuild()
			.streamReadConstraints(constraints)
			.recyclerPool(JsonRecyclerPools.threadLocalPool());
		// Parsers are created outside the mapper, so carry over the read features configured on it
		for (StreamReadFeature feature : StreamReadFeature.values()) {
			builder.configure(feature, mapper.isEnabled(feature));
		}
		// A repeated key is refused at every depth, whatever the mapper's own setting (see the class javadoc)
		builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
		for (JsonReadFeature feature : JsonReadFeature.values()) {
			builder.configure(feature, mapper.isEnabled(feature));
		}
		return builder.build();
	}

	private static @Nullable Object absentValue(JavaType type) {
		Class<?> raw = type.getRawClass();
		if (raw == Optional.class) {
			return Optional.empty();
		}
		if (raw == OptionalInt.class) {
			return OptionalInt.empty();
		}
		if (raw == OptionalLong.class) {
			return OptionalLong.empty();
		}
		if (raw == OptionalDouble.class) {
			return OptionalDouble.empty();
		}
		return null;
	}

	/**
	 * Binds the JSON arguments of one call.
	 * @param json the arguments object as JSON text; {@code null} or blank for none
	 * @return the bound values by parameter name, in parameter declaration order, unmodifiable; a value is
	 * {@code null} where an optional parameter was not given
	 * @throws InvalidToolArgumentsException if the arguments cannot be bound, naming the parameter at fault
	 */
	public Map<String, @Nullable Object> bind(@Nullable String json) {
		@Nullable Object[] values = new Object[this.names.length];
		boolean[] given = new boolean[this.names.length];
		if (json != null) {
			if (json.length() > this.limits.maxPayloadChars()) {
				throw invalid(null, "payload of " + json.length() + " characters exceeds the limit of "
						+ this.limits.maxPayloadChars());
			}
			if (!json.isBlank()) {
				read(json, values, given);
			}
		}
		return complete(values, given);
	}

	/**
	 * Binds the arguments of one call given as a map of JSON values (strings, numbers, booleans, lists and maps),
	 * as an MCP client's {@code tools/call} request carries them. Accepts and refuses exactly what
	 * {@link #bind(String)} accepts and refuses for the same JSON, with the same messages (a payload over
	 * {@link ArgumentLimits#maxPayloadChars()} is refused as soon as the count passes the limit, without its exact
	 * length); the values are converted without writing and re-reading JSON text.
	 * @param arguments the arguments by name; {@code null} or empty for none
	 * @return the bound values by parameter name, in parameter declaration order, unmodifiable
	 * @throws InvalidToolArgumentsException if the arguments cannot be bound, naming the parameter at fault
	 */
	public Map<String, @Nullable Object> bindValues(@Nullable Map<String, ? extends @Nullable Object> arguments) {
		@Nullable Object[] values = new Object[this.names.length];
		boolean[] given = new boolean[this.names.length];
		if (arguments != null) {
			checkLimits(arguments);
			for (Map.Entry<String, ? extends @Nullable Object> argument : arguments.entrySet()) {
				int index = indexOf(argument.getKey(), given);
				Object value = argument.getValue();
				if (value == null) {
					if (this.required[index]) {
						throw invalid(this.names[index],
								"is required and must not be null: expected " + this.expectations[index]);
					}
					values[index] = this.absentValues[index];
				}
				else {
					values[index] = convert(index, value);
				}
				given[index] = true;
			}
		}
		return complete(values, given);
	}

	// The limits bind(String) applies to JSON text, applied to arguments that arrive parsed: their length as compact
	// JSON, counted no further than just past the limit, and their nesting depth (the arguments object is level 1).
	private void checkLimits(Map<String, ? extends @Nullable Object> arguments) {
		long budget = this.limits.maxPayloadChars();
		long length = 1;
		for (Map.Entry<String, ? extends @Nullable Object> argument : arguments.entrySet()) {
			length += jsonLength(argument.getKey()) + 2 + jsonLength(argument.getValue(), 2, budget - length,
					argument.getKey());
			if (length > budget) {
				throw invalid(null, "payload exceeds the limit of " + budget + " characters");
			}
		}
	}

	private long jsonLength(@Nullable Object value, int depth, long budget, String parameter) {
		if (value instanceof CharSequence text) {
			return jsonLength(text);
		}
		if (value instanceof Map<?, ?> map) {
			checkDepth(depth, parameter);
			long length = 1;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				length += jsonLength(String.valueOf(entry.getKey())) + 2
						+ jsonLength(entry.getValue(), depth + 1, budget - length, parameter);
				if (length > budget) {
					return length;
				}
			}
			return length;
		}
		if (value instanceof Iterable<?> list) {
			checkDepth(depth, parameter);
			long length = 1;
			for (Object element : list) {
				length += 1 + jsonLength(element, depth + 1, budget - length, parameter);
				if (length > budget) {
					return length;
				}
			}
			return length;
		}
		return (value != null) ? String.valueOf(value).length() : 4;
	}

	private void checkDepth(int depth, String parameter) {
		if (depth > this.limits.maxDepth()) {
			throw invalid(this.indexByName.containsKey(parameter) ? parameter : null,
					"nested deeper than " + this.limits.maxDepth() + " levels");
		}
	}

	// A string's length as a JSON string literal: quotes, and escapes for quotes, backslashes and control characters
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

	private @Nullable Object convert(int index, Object value) {
		Class<?> target = this.types[index].getRawClass();
		// Values that already have the parameter's exact type need no conversion
		if (target == value.getClass() && (value instanceof String || value instanceof Boolean
				|| value instanceof Integer || value instanceof Long)) {
			return value;
		}
		JsonParser parser = this.mapper.valueToTree(value).traverse(ObjectReadContext.empty());
		try {
			parser.nextToken();
			return this.readers[index].readValue(parser);
		}
		catch (StreamConstraintsException ex) {
			throw overLimit(ex, index);
		}
		catch (InputCoercionException ex) {
			throw outOfRange(ex.getTargetType(), where(parser.streamReadContext()), index);
		}
		catch (DatabindException ex) {
			throw mismatch(ex, parser, index);
		}
		catch (JacksonException ex) {
			throw invalid(this.names[index], "could not be read: expected " + this.expectations[index]);
		}
		finally {
			parser.close();
		}
	}

	private void read(String json, @Nullable Object[] values, boolean[] given) {
		Stage stage = Stage.BEFORE_ARGUMENTS;
		int current = -1;
		JsonParser parser = this.parserFactory.createParser(ObjectReadContext.empty(), json);
		try {
			JsonToken token = parser.nextToken();
			if (token != JsonToken.VALUE_NULL) {
				if (token != JsonToken.START_OBJECT) {
					throw invalid(null, "expected a JSON object of arguments but got " + JsonKinds.found(token));
				}
				stage = Stage.IN_ARGUMENTS;
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					current = indexOf(parser.currentName(), given);
					JsonToken valueToken = parser.nextToken();
					if (valueToken == JsonToken.VALUE_NULL) {
						if (this.required[current]) {
							throw invalid(this.names[current],
									"is required and must not be null: expected " + this.expectations[current]);
						}
						values[current] = this.absentValues[current];
					}
					else {
						values[current] = this.readers[current].readValue(parser);
					}
					given[current] = true;
					current = -1;
				}
			}
			stage = Stage.AFTER_ARGUMENTS;
			if (parser.nextToken() != null) {
				throw malformed(parser.currentTokenLocation(), "unexpected content after the arguments object");
			}
		}
		catch (StreamConstraintsException ex) {
			throw overLimit(ex, current);
		}
		catch (InputCoercionException ex) {
			throw outOfRange(ex.getTargetType(), where(parser.streamReadContext()), current);
		}
		catch (StreamReadException ex) {
			throw malformed(ex, stage, current);
		}
		catch (DatabindException ex) {
			throw mismatch(ex, parser, current);
		}
		catch (JacksonException ex) {
			throw invalid(nameOf(current), "could not be read: expected " + expectationOf(current));
		}
		finally {
			parser.close();
		}
	}

	private int indexOf(String name, boolean[] given) {
		Integer index = this.indexByName.get(name);
		if (index == null) {
			throw invalid(echoable(name), "is not a parameter of this tool; " + this.knownNames);
		}
		if (given[index]) {
			throw invalid(name, "is given more than once");
		}
		return index;
	}

	private Map<String, @Nullable Object> complete(@Nullable Object[] values, boolean[] given) {
		for (int i = 0; i < this.names.length; i++) {
			if (!given[i]) {
				if (this.required[i]) {
					throw invalid(this.names[i], "is required: expected " + this.expectations[i]);
				}
				values[i] = this.absentValues[i];
			}
		}
		return this.argumentNames.with(values);
	}

	private InvalidToolArgumentsException overLimit(StreamConstraintsException ex, int current) {
		String message = String.valueOf(ex.getOriginalMessage());
		if (message.contains("nesting depth")) {
			return invalid(nameOf(current), "nested deeper than " + this.limits.maxDepth() + " levels");
		}
		return invalid(nameOf(current), "contains a number, string or property name longer than allowed");
	}

	private InvalidToolArgumentsException outOfRange(@Nullable Class<?> target, String where, int current) {
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

	// Renders where inside a parameter's value the parser stood, such as "at 'origin.lat': ", from its contexts.
	private static String where(@Nullable TokenStreamContext context) {
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

	private InvalidToolArgumentsException malformed(StreamReadException ex, Stage stage, int current) {
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

	// The parser refuses a repeated key at any depth; at the top level the key is a parameter given twice.
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
		return invalid(echoable(name), "is not a parameter of this tool; " + this.knownNames);
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

	private InvalidToolArgumentsException malformed(@Nullable TokenStreamLocation location, String problem) {
		if (location != null && location.getLineNr() > 0 && location.getColumnNr() > 0) {
			return invalid(null, "malformed JSON at line " + location.getLineNr() + ", column "
					+ location.getColumnNr() + ": " + problem);
		}
		return invalid(null, "malformed JSON: " + problem);
	}

	private InvalidToolArgumentsException mismatch(DatabindException ex, JsonParser parser, int current) {
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
				// An integer given for an integer type is only refused when it does not fit
				return outOfRange(expected.getRawClass(), prefix, current);
			}
		}
		return invalid(this.names[current], prefix + JsonKinds.mismatch(expected, token));
	}

	// Renders where inside a value binding failed, such as "at 'origin.lat': "; map keys are data, so not shown.
	private static String at(List<JacksonException.Reference> path) {
		if (path.isEmpty()) {
			return "";
		}
		StringBuilder where = new StringBuilder();
		for (JacksonException.Reference reference : path) {
			Object from = reference.from();
			boolean inMap = (from instanceof Map<?, ?>) || (from instanceof Class<?> type && Map.class.isAssignableFrom(type));
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

	private @Nullable String nameOf(int index) {
		return (index >= 0) ? this.names[index] : null;
	}

	private String expectationOf(int index) {
		return (index >= 0) ? this.expectations[index] : "a JSON object of arguments";
	}

	private InvalidToolArgumentsException invalid(@Nullable String parameter, String problem) {
		return new InvalidToolArgumentsException(this.toolName, parameter, problem);
	}

	@Override
	public String toString() {
		return "JsonArgumentBinder[" + this.toolName + ", " + String.join(", ", this.names) + "]";
	}

	private enum Stage {

		BEFORE_ARGUMENTS, IN_ARGUMENTS, AFTER_ARGUMENTS

	}

}
