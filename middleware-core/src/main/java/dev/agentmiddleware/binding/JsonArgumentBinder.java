package dev.agentmiddleware.binding;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import dev.agentmiddleware.tool.ToolArguments;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Binds the JSON arguments of a call, as a model or an MCP client sends them, to the Java
 * types of a tool's parameters. Built once per tool; immutable and thread-safe.
 *
 * <p>
 * {@link #bind(String)} reads the payload in one streaming pass: each top-level property
 * is looked up among the parameters and its value is read straight into the parameter's
 * generic type by the mapper. The result is an unmodifiable map in parameter declaration
 * order, whatever the order of the JSON properties:
 * <ul>
 * <li>a parameter that is not given, or given as {@code null}, maps to {@code null}
 * ({@code Optional.empty()} and its primitive variants for {@code Optional} parameters)
 * unless it is {@linkplain ToolParameter#isRequired() required}; primitive parameters are
 * always required, so a primitive never silently becomes {@code 0} or {@code false};</li>
 * <li>{@code null}, blank, {@code "null"} and {@code "{}"} mean "no arguments".</li>
 * </ul>
 *
 * <p>
 * Any other bad input fails with an {@link InvalidToolArgumentsException} that names the
 * tool, the parameter when there is one, and what was expected, such as
 * {@code expected an integer but got a string}: malformed JSON (with line and column), a
 * payload that is not an object, a missing required parameter, a value of the wrong kind,
 * an unknown or repeated parameter, a payload over
 * {@link ArgumentLimits#maxPayloadChars()} characters or nested deeper than
 * {@link ArgumentLimits#maxDepth()} levels. Messages never contain argument values, which
 * may be secrets, and never the parser's own wording.
 *
 * <p>
 * Values are read with the mapper's configuration (modules, coercions such as {@code "3"}
 * to {@code 3}), tightened where leniency would lose or invent data: {@code 2.5} is not
 * an integer, {@code null} is not a primitive, a number is not an enum constant, and an
 * object with a property its type does not know is rejected (the generated schema says
 * {@code "additionalProperties": false}). An integer too large or too small for its type
 * ({@code 2147483648} for an {@code int}) is refused naming the parameter and the allowed
 * range, not clamped or wrapped. Duplicate keys are refused at every depth, whatever the
 * mapper's setting: a parameter given twice is {@code is given more than once}, a key
 * repeated inside a value {@code contains a duplicate key}; no path silently keeps the
 * first or the last. <pre>{@code
 * JsonArgumentBinder binder = new JsonArgumentBinder("get_weather",
 *         List.of(new ToolParameter("city", String.class, "City name", true),
 *                 new ToolParameter("days", int.class, "Days to forecast", true)),
 *         JsonMapper.shared(), ArgumentLimits.DEFAULTS);
 * Map<String, Object> arguments = binder.bind("{\"days\":3,\"city\":\"Lisbon\"}"); // {city=Lisbon, days=3}
 * }</pre>
 */
public final class JsonArgumentBinder {

	private final String toolName;

	private final String[] names;

	private final ToolArguments.Names argumentNames;

	private final Map<String, Integer> indexByName;

	private final JavaType[] types;

	private final ObjectReader[] readers;

	private final boolean[] required;

	private final @Nullable Object[] absentValues;

	private final String[] expectations;

	private final ArgumentLimits limits;

	private final ArgumentErrors errors;

	private final JsonFactory parserFactory;

	private final JsonMapper mapper;

	/**
	 * Creates a binder for one tool.
	 * @param toolName the tool, named in every error
	 * @param parameters the tool's parameters, in declaration order
	 * @param mapper the mapper that reads each value; its modules and coercion settings
	 * apply
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
		// Each value is read from the middle of the arguments object: what follows it is
		// not trailing content
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
		this.errors = new ArgumentErrors(toolName, this.names, this.indexByName, this.types, this.readers,
				this.expectations, limits.maxDepth());
		this.parserFactory = parserFactory(mapper, limits);
		this.mapper = mapper;
	}

	private static JsonFactory parserFactory(JsonMapper mapper, ArgumentLimits limits) {
		JsonFactory factory = mapper.tokenStreamFactory();
		StreamReadConstraints constraints = factory.streamReadConstraints()
			.rebuild()
			.maxNestingDepth(limits.maxDepth())
			.build();
		// Buffers come from a per-thread pool: the default shared pool costs two
		// contended updates per call.
		JsonFactoryBuilder builder = factory.rebuild()
			.streamReadConstraints(constraints)
			.recyclerPool(JsonRecyclerPools.threadLocalPool());
		// Parsers are created outside the mapper, so carry over the read features
		// configured on it
		for (StreamReadFeature feature : StreamReadFeature.values()) {
			builder.configure(feature, mapper.isEnabled(feature));
		}
		// A repeated key is refused at every depth, whatever the mapper's own setting
		// (see the class javadoc)
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
	 * @return the bound values by parameter name, in parameter declaration order,
	 * unmodifiable; a value is {@code null} where an optional parameter was not given
	 * @throws InvalidToolArgumentsException if the arguments cannot be bound, naming the
	 * parameter at fault
	 */
	public Map<String, @Nullable Object> bind(@Nullable String json) {
		@Nullable Object[] values = new Object[this.names.length];
		boolean[] given = new boolean[this.names.length];
		if (json != null) {
			if (json.length() > this.limits.maxPayloadChars()) {
				throw this.errors.invalid(null, "payload of " + json.length() + " characters exceeds the limit of "
						+ this.limits.maxPayloadChars());
			}
			if (!json.isBlank()) {
				read(json, values, given);
			}
		}
		return complete(values, given);
	}

	/**
	 * Binds the arguments of one call given as a map of JSON values (strings, numbers,
	 * booleans, lists and maps), as an MCP client's {@code tools/call} request carries
	 * them. Accepts and refuses exactly what {@link #bind(String)} accepts and refuses
	 * for the same JSON, with the same messages (a payload over
	 * {@link ArgumentLimits#maxPayloadChars()} is refused as soon as the count passes the
	 * limit, without its exact length); the values are converted without writing and
	 * re-reading JSON text.
	 * @param arguments the arguments by name; {@code null} or empty for none
	 * @return the bound values by parameter name, in parameter declaration order,
	 * unmodifiable
	 * @throws InvalidToolArgumentsException if the arguments cannot be bound, naming the
	 * parameter at fault
	 */
	public Map<String, @Nullable Object> bindValues(@Nullable Map<String, ? extends @Nullable Object> arguments) {
		@Nullable Object[] values = new Object[this.names.length];
		boolean[] given = new boolean[this.names.length];
		if (arguments != null) {
			ParsedArgumentLimits.check(arguments, this.limits, this.errors);
			for (Map.Entry<String, ? extends @Nullable Object> argument : arguments.entrySet()) {
				int index = indexOf(argument.getKey(), given);
				Object value = argument.getValue();
				values[index] = (value != null) ? convert(index, value) : givenAsNull(index);
				given[index] = true;
			}
		}
		return complete(values, given);
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
		catch (JacksonException ex) {
			throw this.errors.unreadable(ex, parser, index);
		}
		finally {
			parser.close();
		}
	}

	private void read(String json, @Nullable Object[] values, boolean[] given) {
		ArgumentErrors.Stage stage = ArgumentErrors.Stage.BEFORE_ARGUMENTS;
		int current = -1;
		JsonParser parser = this.parserFactory.createParser(ObjectReadContext.empty(), json);
		try {
			JsonToken token = parser.nextToken();
			if (token != JsonToken.VALUE_NULL) {
				if (token != JsonToken.START_OBJECT) {
					throw this.errors.invalid(null,
							"expected a JSON object of arguments but got " + JsonKinds.found(token));
				}
				stage = ArgumentErrors.Stage.IN_ARGUMENTS;
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					current = indexOf(parser.currentName(), given);
					values[current] = (parser.nextToken() == JsonToken.VALUE_NULL) ? givenAsNull(current)
							: this.readers[current].readValue(parser);
					given[current] = true;
					current = -1;
				}
			}
			stage = ArgumentErrors.Stage.AFTER_ARGUMENTS;
			if (parser.nextToken() != null) {
				throw this.errors.malformed(parser.currentTokenLocation(),
						"unexpected content after the arguments object");
			}
		}
		catch (StreamConstraintsException | InputCoercionException ex) {
			throw this.errors.unreadable(ex, parser, current);
		}
		catch (StreamReadException ex) {
			throw this.errors.malformed(ex, stage, current);
		}
		catch (JacksonException ex) {
			throw this.errors.unreadable(ex, parser, current);
		}
		finally {
			parser.close();
		}
	}

	// An argument given as null: absent, unless it is required
	private @Nullable Object givenAsNull(int index) {
		if (this.required[index]) {
			throw this.errors.invalid(this.names[index],
					"is required and must not be null: expected " + this.expectations[index]);
		}
		return this.absentValues[index];
	}

	private int indexOf(String name, boolean[] given) {
		Integer index = this.indexByName.get(name);
		if (index == null) {
			throw this.errors.unknown(name);
		}
		if (given[index]) {
			throw this.errors.invalid(name, "is given more than once");
		}
		return index;
	}

	private Map<String, @Nullable Object> complete(@Nullable Object[] values, boolean[] given) {
		for (int i = 0; i < this.names.length; i++) {
			if (!given[i]) {
				if (this.required[i]) {
					throw this.errors.invalid(this.names[i], "is required: expected " + this.expectations[i]);
				}
				values[i] = this.absentValues[i];
			}
		}
		return this.argumentNames.with(values);
	}

	@Override
	public String toString() {
		return "JsonArgumentBinder[" + this.toolName + ", " + String.join(", ", this.names) + "]";
	}

}
