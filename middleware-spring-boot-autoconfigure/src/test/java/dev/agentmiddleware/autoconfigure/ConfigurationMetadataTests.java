package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata the build generates (with
 * {@code additional-spring-configuration-metadata.json} merged in) is complete: every
 * property that binds has an entry with a description, and every property with a default
 * value states it, equal to the value the properties class really starts with.
 */
class ConfigurationMetadataTests {

	private final Map<String, JsonNode> metadata = readMetadata();

	@Test
	void everyPropertyHasADescription() {
		assertThat(this.metadata.values()).isNotEmpty()
			.filteredOn((entry) -> entry.path("description").asString("").isBlank())
			.extracting((entry) -> entry.path("name").asString())
			.isEmpty();
	}

	@Test
	void everyPropertyThatBindsIsInTheMetadataWithItsDefault() throws Exception {
		List<String> problems = new ArrayList<>();
		for (Map.Entry<String, Class<?>> group : propertiesClasses().entrySet()) {
			Object instance = BeanUtils.instantiateClass(group.getValue());
			walk(group.getKey(), ResolvableType.forClass(group.getValue()), instance, problems);
		}
		assertThat(problems).isEmpty();
	}

	private void walk(String prefix, ResolvableType type, @Nullable Object value, List<String> problems) {
		Class<?> raw = type.resolve(Object.class);
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(raw)) {
			if (descriptor.getReadMethod() == null || "class".equals(descriptor.getName())) {
				continue;
			}
			String name = prefix + "." + DataObjectPropertyName.toDashedForm(descriptor.getName());
			ResolvableType propertyType = ResolvableType.forMethodReturnType(descriptor.getReadMethod(), raw);
			Object propertyValue = (value != null) ? invoke(descriptor, value) : null;
			if (isGroup(propertyType, raw)) {
				walk(name, propertyType, propertyValue, problems);
				continue;
			}
			JsonNode entry = this.metadata.get(name);
			if (entry == null) {
				problems.add(name + " is not in the metadata");
				continue;
			}
			boolean hasDefault = propertyValue != null && !(propertyValue instanceof Map<?, ?> map && map.isEmpty())
					&& !(propertyValue instanceof Collection<?> collection && collection.isEmpty());
			if (hasDefault && !entry.has("defaultValue")) {
				problems.add(name + " has no defaultValue, but starts as " + propertyValue);
			}
			else if (hasDefault && !sameValue(propertyValue, entry.get("defaultValue"), propertyType)) {
				problems.add(name + " states the defaultValue " + entry.get("defaultValue") + ", but starts as "
						+ propertyValue);
			}
		}
	}

	// A nested group: a class of ours that is not an enum, a map or a list.
	private static boolean isGroup(ResolvableType type, Class<?> owner) {
		Class<?> raw = type.resolve(Object.class);
		// Properties classes live in autoconfigure and beside the Spring integrations
		// they configure
		boolean ours = raw.getName().startsWith("dev.agentmiddleware.autoconfigure")
				|| raw.getName().startsWith("dev.agentmiddleware.spring");
		return ours && !raw.isEnum() && !Map.class.isAssignableFrom(raw) && !Collection.class.isAssignableFrom(raw);
	}

	private static boolean sameValue(Object value, JsonNode defaultValue, ResolvableType type) {
		if (value instanceof Collection<?> collection) {
			List<String> items = new ArrayList<>();
			defaultValue.forEach((item) -> items.add(item.asString()));
			return collection.stream()
				.map((item) -> (item instanceof Class<?> element) ? element.getName() : String.valueOf(item))
				.toList()
				.equals(items);
		}
		String text = defaultValue.asString();
		return value.equals(ApplicationConversionService.getSharedInstance()
			.convert(text, TypeDescriptor.valueOf(String.class), new TypeDescriptor(type, null, null)));
	}

	private static @Nullable Object invoke(PropertyDescriptor descriptor, Object target) {
		try {
			// properties classes used only by their own auto-configuration are
			// package-private
			ReflectionUtils.makeAccessible(descriptor.getReadMethod());
			return descriptor.getReadMethod().invoke(target);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Map<String, Class<?>> propertiesClasses() throws ClassNotFoundException {
		Map<String, Class<?>> classes = new LinkedHashMap<>();
		JsonNode root = readJson();
		for (JsonNode group : root.path("groups")) {
			String name = group.path("name").asString();
			if (name.startsWith(AgentMiddlewareProperties.PREFIX) && !group.has("sourceMethod")
					&& group.path("type").asString().equals(group.path("sourceType").asString())) {
				classes.put(name, Class.forName(group.path("type").asString()));
			}
		}
		return classes;
	}

	private static Map<String, JsonNode> readMetadata() {
		Map<String, JsonNode> properties = new LinkedHashMap<>();
		for (JsonNode property : readJson().path("properties")) {
			String name = property.path("name").asString();
			if (name.startsWith(AgentMiddlewareProperties.PREFIX + ".")) {
				properties.put(name, property);
			}
		}
		return properties;
	}

	private static JsonNode readJson() {
		// The module's own metadata, next to its classes, whatever else the test class
		// path holds.
		try (InputStream in = ToolMiddlewareProperties.class.getProtectionDomain()
			.getCodeSource()
			.getLocation()
			.toURI()
			.resolve("META-INF/spring-configuration-metadata.json")
			.toURL()
			.openStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
