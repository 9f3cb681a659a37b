package dev.agentmiddleware.autoconfigure.tool;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import dev.agentmiddleware.binding.JsonArgumentBinder;
import dev.agentmiddleware.binding.ToolParameter;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;

/**
 * The arguments of an {@link AgentTool} method: the JSON schema that tells a model what
 * to send, and the parameters a {@link JsonArgumentBinder} binds what it sent to. Both
 * come from the method signature, so they always agree.
 *
 * <p>
 * The schema (JSON Schema draft 2020-12, generated with victools
 * {@code jsonschema-generator} and its Jackson module) describes an object with one
 * property per method parameter, named by the parameter's real name and described by its
 * {@link AgentToolParam}. It lists as {@code required} every parameter except those
 * marked {@code @AgentToolParam(required = false)} and those of an {@code Optional} type;
 * primitives are always required. It allows no additional properties, neither on the
 * arguments object nor on the objects nested in it, which is what the binder enforces.
 * Types used more than once are shared under {@code $defs}. A
 * {@link dev.agentmiddleware.tool.ToolProgress} parameter is the progress of the call,
 * not an argument: neither described nor bound.
 *
 * <p>
 * When Bean Validation is on the class path, its constraints are part of the schema, so
 * that clients and models see them before calling: on the method's parameters
 * ({@code @Min(1) @Max(14) int days} gives {@code "minimum":1,"maximum":14};
 * {@code @Size}, {@code @NotBlank}, {@code @NotEmpty}, {@code @Pattern},
 * {@code @DecimalMin}, {@code @DecimalMax}, {@code @Positive}, {@code @Negative} and
 * their {@code OrZero} variants, {@code @Email} likewise) and, through victools' Jakarta
 * validation module, on the fields of the types they take. A parameter or field marked
 * {@code @NotNull}, {@code @NotBlank} or {@code @NotEmpty} is required. <pre>{@code
 * ToolMethodSchema schema = ToolMethodSchema.of(WeatherTools.class.getMethod("getWeather", String.class, int.class));
 * schema.inputSchema();  // {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
 *                        //  "properties":{"city":{"type":"string","description":"City name"},"days":{...}},
 *                        //  "required":["city","days"],"additionalProperties":false}
 * schema.parameters();   // [ToolParameter[name=city, ...], ToolParameter[name=days, ...]]
 * }</pre>
 *
 * <p>
 * A tool may declare its schema instead ({@link AgentTool#inputSchema()},
 * {@link #declared}): it is published as written, and checked against the method's
 * parameters when the application starts.
 *
 * @param inputSchema the JSON schema of the arguments object, as compact JSON text
 * @param parameters the method's parameters, in declaration order
 */
record ToolMethodSchema(String inputSchema, List<ToolParameter> parameters) {

	private static final boolean BEAN_VALIDATION_PRESENT = ClassUtils
		.isPresent("jakarta.validation.constraints.NotNull", ToolMethodSchema.class.getClassLoader());

	private static final SchemaGenerator GENERATOR = createGenerator();

	// The keyword of a property mirrored into an HTTP header by MCP clients (SEP-2243)
	private static final String MCP_HEADER = "x-mcp-header";

	private static final Pattern HEADER_TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

	private static final Set<String> HEADER_TYPES = Set.of("string", "number", "integer", "boolean");

	/**
	 * Validates the schema.
	 */
	public ToolMethodSchema {
		Objects.requireNonNull(inputSchema, "inputSchema");
		parameters = List.copyOf(parameters);
	}

	/**
	 * Reads the arguments of a tool method. Meant to run once per tool, when the
	 * application starts.
	 * @param method the tool method; its class must be compiled with {@code -parameters},
	 * as Spring Boot's Maven and Gradle plugins do
	 * @return the schema and the parameters
	 * @throws IllegalStateException if the method's parameter names were not compiled
	 * into its class
	 */
	public static ToolMethodSchema of(Method method) {
		List<ToolParameter> parameters = new ArrayList<>(method.getParameterCount());
		List<Parameter> arguments = new ArrayList<>(method.getParameterCount());
		for (Parameter parameter : method.getParameters()) {
			if (ToolProgressParameter.is(parameter)) {
				continue; // the call's progress, not an argument
			}
			if (!parameter.isNamePresent()) {
				throw new IllegalStateException("Cannot read the parameter names of tool method "
						+ ClassUtils.getQualifiedMethodName(method) + ": they are needed as the names of the tool's "
						+ "arguments; compile " + method.getDeclaringClass().getSimpleName()
						+ " with the javac option '-parameters' (Spring Boot's Maven and Gradle plugins set it)");
			}
			parameters.add(toolParameter(parameter));
			arguments.add(parameter);
		}
		return new ToolMethodSchema(inputSchema(parameters, arguments.toArray(Parameter[]::new)), parameters);
	}

	/**
	 * Reads the schema a tool method declares ({@link AgentTool#inputSchema()}) and
	 * checks it against the method's parameters: each of the schema's properties must be
	 * a parameter, and each parameter the method requires (as {@link #of(Method)}
	 * decides) must be a property listed under {@code required}. A parameter is required
	 * when the method or the schema requires it; it is described as the schema describes
	 * its property, or else by its {@link AgentToolParam}. Meant to run once per tool,
	 * when the application starts.
	 * @param method the tool method
	 * @param toolName the tool's name, for messages
	 * @param location where the schema is, such as {@code classpath:schemas/contact.json}
	 * @return the schema as written, in compact JSON, and the parameters
	 * @throws InvalidToolConfigurationException if the schema cannot be read or does not
	 * match the parameters, naming the tool, the parameter and what was expected
	 */
	static ToolMethodSchema declared(Method method, String toolName, String location) {
		ToolMethodSchema generated = of(method);
		JsonNode schema = readDeclared(method, toolName, location);
		JsonNode properties = schema.path("properties");
		Set<String> required = new LinkedHashSet<>();
		schema.path("required").valueStream().forEach((name) -> required.add(name.asString()));
		List<String> names = generated.parameters().stream().map(ToolParameter::name).toList();
		for (String property : properties.propertyNames()) {
			if (!names.contains(property)) {
				throw invalidSchema(method, toolName, location,
						"its property '" + property + "' is not a parameter of " + methodName(method) + " (parameters: "
								+ describe(names) + ")",
						"Rename the property or the parameter so that they match, or remove the property");
			}
		}
		for (String name : required) {
			if (!names.contains(name)) {
				throw invalidSchema(method, toolName, location,
						"it requires '" + name + "', which is not a parameter of " + methodName(method)
								+ " (parameters: " + describe(names) + ")",
						"Remove '" + name + "' from \"required\", or add the parameter to the method");
			}
		}
		List<ToolParameter> parameters = new ArrayList<>();
		for (ToolParameter parameter : generated.parameters()) {
			String name = parameter.name();
			if (parameter.isRequired() && (!properties.has(name) || !required.contains(name))) {
				String where = properties.has(name) ? "it does not list parameter '" + name + "' under \"required\""
						: "it has no property for parameter '" + name + "'";
				throw invalidSchema(method, toolName, location,
						where + ", which " + methodName(method) + " requires: expected a property '" + name
								+ "' listed under \"required\"",
						"Add '" + name + "' to the schema's properties and \"required\", or mark the parameter "
								+ "@AgentToolParam(required = false) or make it Optional");
			}
			String description = properties.path(name).path("description").asString(parameter.description());
			parameters.add(new ToolParameter(name, parameter.type(), description,
					parameter.isRequired() || required.contains(name)));
		}
		return new ToolMethodSchema(schema.toString(), parameters);
	}

	private static JsonNode readDeclared(Method method, String toolName, String location) {
		Resource resource = new DefaultResourceLoader(method.getDeclaringClass().getClassLoader())
			.getResource(location);
		if (!resource.exists()) {
			throw invalidSchema(method, toolName, location, "no resource is at this location",
					"Put the schema at '" + location + "' (for classpath:, under src/main/resources), or correct "
							+ "@AgentTool(inputSchema = ...)");
		}
		JsonNode schema;
		try (InputStream content = resource.getInputStream()) {
			schema = JsonMapper.shared().readTree(content);
		}
		catch (IOException | JacksonException ex) {
			throw invalidSchema(method, toolName, location, "it is not valid JSON",
					"Correct the JSON of '" + location + "'");
		}
		if (schema == null || !schema.isObject() || !"object".equals(schema.path("type").asString(""))
				|| (schema.has("properties") && !schema.get("properties").isObject())
				|| (schema.has("required") && !schema.get("required").isArray())) {
			throw invalidSchema(method, toolName, location,
					"it is not the schema of an arguments object: expected a JSON object with \"type\": \"object\", "
							+ "its \"properties\" an object and its \"required\" an array",
					"Correct '" + location + "'");
		}
		return schema;
	}

	private static InvalidToolConfigurationException invalidSchema(Method method, String toolName, String location,
			String reason, String action) {
		// No configuration property declares the schema: the annotation attribute stands
		// in its place
		return new InvalidToolConfigurationException("@AgentTool(inputSchema) of tool '" + toolName + "'", location,
				"the input schema of tool '" + toolName + "' (" + methodName(method) + ") does not fit the method: "
						+ reason,
				action);
	}

	private static String methodName(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName();
	}

	private static String describe(List<String> names) {
		return names.isEmpty() ? "none" : String.join(", ", names);
	}

	private static ToolParameter toolParameter(Parameter parameter) {
		MergedAnnotation<AgentToolParam> annotation = MergedAnnotations.from(parameter).get(AgentToolParam.class);
		String description = annotation.isPresent() ? annotation.getString("description") : "";
		boolean required = parameter.getType().isPrimitive()
				|| (!isOptional(parameter.getType()) && (!annotation.isPresent() || annotation.getBoolean("required")))
				|| (BEAN_VALIDATION_PRESENT && ParameterConstraintSchema.isRequired(parameter));
		return new ToolParameter(parameter.getName(), parameter.getParameterizedType(), description, required);
	}

	private static boolean isOptional(Class<?> type) {
		return type == Optional.class || type == OptionalInt.class || type == OptionalLong.class
				|| type == OptionalDouble.class;
	}

	private static String inputSchema(List<ToolParameter> parameters, Parameter[] declared) {
		// A SchemaGenerator is not documented as thread-safe; this runs once per tool, at
		// startup
		synchronized (GENERATOR) {
			ObjectNode schema = GENERATOR.getConfig().createObjectNode();
			schema.put("$schema", SchemaVersion.DRAFT_2020_12.getIdentifier());
			schema.put("type", "object");
			ObjectNode properties = schema.putObject("properties");
			ArrayNode required = schema.putArray("required");
			schema.put("additionalProperties", false);
			// One builder for all parameters, so that a type used by several of them is
			// defined once
			SchemaBuilder builder = GENERATOR.buildMultipleSchemaDefinitions();
			for (ToolParameter parameter : parameters) {
				properties.set(parameter.name(), builder.createSchemaReference(valueType(parameter.type())));
				if (parameter.isRequired()) {
					required.add(parameter.name());
				}
			}
			ObjectNode definitions = builder.collectDefinitions("$defs");
			if (!definitions.isEmpty()) {
				schema.set("$defs", definitions);
			}
			Set<String> headers = new LinkedHashSet<>();
			for (int i = 0; i < parameters.size(); i++) {
				ToolParameter parameter = parameters.get(i);
				ObjectNode property = (ObjectNode) properties.get(parameter.name());
				if (!parameter.description().isEmpty()) {
					property.put("description", parameter.description());
				}
				if (BEAN_VALIDATION_PRESENT) {
					ParameterConstraintSchema.apply(declared[i], erasure(valueType(parameter.type())), property);
				}
				String header = header(declared[i], property, headers);
				if (header != null) {
					property.put(MCP_HEADER, header);
				}
			}
			return schema.toString();
		}
	}

	// The header a parameter is mirrored into (AgentToolParam#header), checked against
	// the
	// rules of x-mcp-header: a token, of a primitive JSON type, unique whatever its case
	private static @Nullable String header(Parameter parameter, ObjectNode property, Set<String> headers) {
		MergedAnnotation<AgentToolParam> annotation = MergedAnnotations.from(parameter).get(AgentToolParam.class);
		String header = annotation.isPresent() ? annotation.getString("header") : "";
		if (header.isEmpty()) {
			return null;
		}
		String where = "@AgentToolParam(header = \"" + header + "\") of parameter '" + parameter.getName() + "' of "
				+ methodName((Method) parameter.getDeclaringExecutable());
		if (!HEADER_TOKEN.matcher(header).matches()) {
			throw new IllegalStateException(where + " is not an HTTP header name: use letters, digits and "
					+ "!#$%&'*+-.^_`|~ only, without spaces or colons");
		}
		if (!HEADER_TYPES.contains(property.path("type").asString(""))) {
			throw new IllegalStateException(where + " is on a parameter whose JSON type is not string, number, "
					+ "integer or boolean: only such a value can be mirrored into a header");
		}
		if (!headers.add(header.toLowerCase(Locale.ROOT))) {
			throw new IllegalStateException(where + " repeats the header of another parameter (header names are "
					+ "compared whatever their case)");
		}
		return header;
	}

	// An Optional parameter is described by what it holds: its absence is told by
	// "required"
	private static Type valueType(Type type) {
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class) {
			return parameterized.getActualTypeArguments()[0];
		}
		if (type == OptionalInt.class) {
			return Integer.class;
		}
		if (type == OptionalLong.class) {
			return Long.class;
		}
		if (type == OptionalDouble.class) {
			return Double.class;
		}
		return type;
	}

	private static Class<?> erasure(Type type) {
		if (type instanceof Class<?> raw) {
			return raw;
		}
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
			return raw;
		}
		return Object.class;
	}

	private static SchemaGenerator createGenerator() {
		SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12,
				OptionPreset.PLAIN_JSON)
			.with(new JacksonSchemaModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED,
					JacksonOption.RESPECT_JSONPROPERTY_ORDER))
			.with(Option.FLATTENED_OPTIONALS, Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT,
					Option.PLAIN_DEFINITION_KEYS);
		if (BEAN_VALIDATION_PRESENT) {
			config.with(new JakartaValidationModule(JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS,
					JakartaValidationOption.NOT_NULLABLE_FIELD_IS_REQUIRED));
		}
		// Properties in declaration order, as Jackson binds records, rather than
		// alphabetically
		config.forTypesInGeneral().withPropertySorter((first, second) -> 0);
		// The binder rejects an object that leaves out a primitive field rather than
		// inventing 0 or false
		config.forFields().withRequiredCheck((field) -> field.getType().getErasedType().isPrimitive());
		return new SchemaGenerator(config.build());
	}

}
