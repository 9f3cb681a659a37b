package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;

/**
 * The arguments of an {@link AgentTool} method: the JSON schema that tells a model what to send, and the
 * parameters a {@link JsonArgumentBinder} binds what it sent to. Both come from the method signature, so they
 * always agree.
 *
 * <p>The schema (JSON Schema draft 2020-12, generated with victools {@code jsonschema-generator} and its Jackson
 * module) describes an object with one property per method parameter, named by the parameter's real name and
 * described by its {@link AgentToolParam}. It lists as {@code required} every parameter except those marked
 * {@code @AgentToolParam(required = false)} and those of an {@code Optional} type; primitives are always
 * required. It allows no additional properties, neither on the arguments object nor on the objects nested in
 * it, which is what the binder enforces. Types used more than once are shared under {@code $defs}. A
 * {@link dev.agentmiddleware.tool.ToolProgress} parameter is the progress of the call, not an argument: neither
 * described nor bound.
 *
 * <p>When Bean Validation is on the class path, its constraints are part of the schema, so that clients and models
 * see them before calling: on the method's parameters ({@code @Min(1) @Max(14) int days} gives
 * {@code "minimum":1,"maximum":14}; {@code @Size}, {@code @NotBlank}, {@code @NotEmpty}, {@code @Pattern},
 * {@code @DecimalMin}, {@code @DecimalMax}, {@code @Positive}, {@code @Negative} and their {@code OrZero} variants,
 * {@code @Email} likewise) and, through victools' Jakarta validation module, on the fields of the types they take.
 * A parameter or field marked {@code @NotNull}, {@code @NotBlank} or {@code @NotEmpty} is required.
 * <pre>{@code
 * ToolMethodSchema schema = ToolMethodSchema.of(WeatherTools.class.getMethod("getWeather", String.class, int.class));
 * schema.inputSchema();  // {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
 *                        //  "properties":{"city":{"type":"string","description":"City name"},"days":{...}},
 *                        //  "required":["city","days"],"additionalProperties":false}
 * schema.parameters();   // [ToolParameter[name=city, ...], ToolParameter[name=days, ...]]
 * }</pre>
 *
 * @param inputSchema the JSON schema of the arguments object, as compact JSON text
 * @param parameters the method's parameters, in declaration order
 */
record ToolMethodSchema(String inputSchema, List<ToolParameter> parameters) {

	private static final boolean BEAN_VALIDATION_PRESENT = ClassUtils
		.isPresent("jakarta.validation.constraints.NotNull", ToolMethodSchema.class.getClassLoader());

	private static final SchemaGenerator GENERATOR = createGenerator();

	/**
	 * Validates the schema.
	 */
	public ToolMethodSchema {
		Objects.requireNonNull(inputSchema, "inputSchema");
		parameters = List.copyOf(parameters);
	}

	/**
	 * Reads the arguments of a tool method. Meant to run once per tool, when the application starts.
	 * @param method the tool method; its class must be compiled with {@code -parameters}, as Spring Boot's Maven
	 * and Gradle plugins do
	 * @return the schema and the parameters
	 * @throws IllegalStateException if the method's parameter names were not compiled into its class
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

	private static ToolParameter toolParameter(Parameter parameter) {
		MergedAnnotation<AgentToolParam> annotation = MergedAnnotations.from(parameter).get(AgentToolParam.class);
		String description = annotation.isPresent() ? annotation.getString("description") : "";
		boolean required = parameter.getType().isPrimitive() || (!isOptional(parameter.getType())
				&& (!annotation.isPresent() || annotation.getBoolean("required")))
				|| (BEAN_VALIDATION_PRESENT && ParameterConstraintSchema.isRequired(parameter));
		return new ToolParameter(parameter.getName(), parameter.getParameterizedType(), description, required);
	}

	private static boolean isOptional(Class<?> type) {
		return type == Optional.class || type == OptionalInt.class || type == OptionalLong.class
				|| type == OptionalDouble.class;
	}

	private static String inputSchema(List<ToolParameter> parameters, Parameter[] declared) {
		// A SchemaGenerator is not documented as thread-safe; this runs once per tool, at startup
		synchronized (GENERATOR) {
			ObjectNode schema = GENERATOR.getConfig().createObjectNode();
			schema.put("$schema", SchemaVersion.DRAFT_2020_12.getIdentifier());
			schema.put("type", "object");
			ObjectNode properties = schema.putObject("properties");
			ArrayNode required = schema.putArray("required");
			schema.put("additionalProperties", false);
			// One builder for all parameters, so that a type used by several of them is defined once
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
			for (int i = 0; i < parameters.size(); i++) {
				ToolParameter parameter = parameters.get(i);
				ObjectNode property = (ObjectNode) properties.get(parameter.name());
				if (!parameter.description().isEmpty()) {
					property.put("description", parameter.description());
				}
				if (BEAN_VALIDATION_PRESENT) {
					ParameterConstraintSchema.apply(declared[i], erasure(valueType(parameter.type())), property);
				}
			}
			return schema.toString();
		}
	}

	// An Optional parameter is described by what it holds: its absence is told by "required"
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
		// Properties in declaration order, as Jackson binds records, rather than alphabetically
		config.forTypesInGeneral().withPropertySorter((first, second) -> 0);
		// The binder rejects an object that leaves out a primitive field rather than inventing 0 or false
		config.forFields().withRequiredCheck((field) -> field.getType().getErasedType().isPrimitive());
		return new SchemaGenerator(config.build());
	}

}
