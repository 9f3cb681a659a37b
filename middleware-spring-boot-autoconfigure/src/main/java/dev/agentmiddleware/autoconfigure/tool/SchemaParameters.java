package dev.agentmiddleware.autoconfigure.tool;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentmiddleware.binding.ToolParameter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parameters of a tool known only by the JSON schema of its arguments: one parameter
 * per schema property, bound as a plain JSON value, required when the schema's
 * {@code required} lists it.
 */
final class SchemaParameters {

	private SchemaParameters() {
	}

	static List<ToolParameter> of(String toolName, String inputSchema, JsonMapper mapper) {
		JsonNode schema;
		try {
			schema = mapper.readTree(inputSchema);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("Tool '" + toolName + "' has an input schema that is not valid JSON");
		}
		Set<String> required = new HashSet<>();
		JsonNode requiredNode = schema.path("required");
		if (requiredNode.isArray()) {
			requiredNode.forEach((name) -> required.add(name.asString()));
		}
		List<ToolParameter> parameters = new ArrayList<>();
		JsonNode properties = schema.path("properties");
		if (properties.isObject()) {
			for (Map.Entry<String, JsonNode> property : properties.properties()) {
				String description = property.getValue().path("description").asString("");
				parameters.add(new ToolParameter(property.getKey(), Object.class, description,
						required.contains(property.getKey())));
			}
		}
		return parameters;
	}

}
