package dev.agentmiddleware.autoconfigure.mcp;

import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.BeanUtils;
import org.springframework.core.ResolvableType;

/**
 * The MCP {@code outputSchema} of a tool's result type: a JSON schema (draft 2020-12) for
 * results that are JSON objects — records, beans and maps — and none for text, numbers,
 * booleans, enums, arrays and collections, which MCP cannot describe as structured
 * content, nor for rich results, which are content blocks. Lenient by design: every
 * property may be {@code null} and none is required, so that whatever the application's
 * {@code JsonMapper} writes for the type validates. <pre>{@code
 * ToolOutputSchema.of(Forecast.class, jsonMapper);   // {"type":"object","properties":{"city":{...},...}}
 * ToolOutputSchema.of(String.class, jsonMapper);     // null: a text result
 * }</pre>
 */
final class ToolOutputSchema {

	private static final SchemaGenerator GENERATOR = new SchemaGenerator(
			new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
				.with(new JacksonSchemaModule())
				.with(Option.NULLABLE_FIELDS_BY_DEFAULT, Option.PLAIN_DEFINITION_KEYS)
				.build());

	private ToolOutputSchema() {
	}

	/**
	 * The output schema of a result type, or {@code null} when results of the type are
	 * not JSON objects.
	 * @param resultType the tool method's generic return type
	 * @param jsonMapper converts the generated schema to a map
	 * @return the schema as a map, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	static @Nullable Map<String, Object> of(Type resultType, JsonMapper jsonMapper) {
		if (!isStructured(ResolvableType.forType(resultType).toClass())) {
			return null;
		}
		ObjectNode schema;
		// A SchemaGenerator is not documented as thread-safe; this runs once per tool, at
		// startup
		synchronized (GENERATOR) {
			schema = GENERATOR.generateSchema(resultType);
		}
		if (!"object".equals(schema.path("type").asString(null))) {
			return null;
		}
		return jsonMapper.convertValue(schema, Map.class);
	}

	static boolean isStructured(Class<?> type) {
		if (Map.class.isAssignableFrom(type)) {
			return true;
		}
		return !(type == Object.class || type == void.class || type == Void.class || type.isArray() || type.isEnum()
				|| type.isInterface() || Collection.class.isAssignableFrom(type) || type == Optional.class
				|| BeanUtils.isSimpleValueType(type) || type.getName().startsWith("java.")
				|| McpToolContents.isRich(type));
	}

}
