package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;

/**
 * Turns a startup failure caused by the middleware's configuration into Spring Boot's
 * "APPLICATION FAILED TO START" report: the property, its value and origin (file and
 * line), the reason, and the fix, with "did you mean ...?" where a name is misspelt. It
 * reports an {@link InvalidToolConfigurationException} (a value out of its limits, a tool
 * name that matches no tool), the keys under {@code agent.middleware} that no field binds
 * (typos such as {@code agent.middleware.cache.tools.lookup-order.tll}, refused by
 * {@link StrictBinding}), and values that cannot be converted (an unknown enum constant,
 * {@code maybe} for a boolean), listing what is allowed.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class AgentMiddlewareFailureAnalyzer implements FailureAnalyzer {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName
		.of(AgentMiddlewareProperties.PREFIX);

	private final @Nullable Environment environment;

	AgentMiddlewareFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		InvalidToolConfigurationException invalid = findCause(failure, InvalidToolConfigurationException.class);
		if (invalid != null) {
			ConfigurationProperty bound = invalid.getProperty().startsWith("@") ? null : find(invalid.getProperty());
			boolean exact = bound != null && bound.getName().toString().equals(invalid.getProperty());
			// The value as the user wrote it ("-1s"), unless the environment only has a
			// property below this one.
			Object value = (exact || invalid.getValue() == null) && bound != null ? bound.getValue()
					: invalid.getValue();
			String description = describe(invalid.getProperty(), value, bound, invalid.getReason()).stripTrailing();
			return new FailureAnalysis(description, invalid.getAction(), invalid);
		}
		BindException binding = findCause(failure, BindException.class);
		if (binding == null || !(ROOT.equals(binding.getName()) || ROOT.isAncestorOf(binding.getName()))) {
			return null;
		}
		UnboundConfigurationPropertiesException unbound = findCause(failure,
				UnboundConfigurationPropertiesException.class);
		if (unbound != null) {
			return analyzeUnbound(unbound, binding);
		}
		ConversionFailedException conversion = findCause(failure, ConversionFailedException.class);
		if (conversion != null && binding.getProperty() != null) {
			return analyzeConversion(binding, conversion);
		}
		return null;
	}

	private @Nullable FailureAnalysis analyzeUnbound(UnboundConfigurationPropertiesException unbound,
			BindException binding) {
		List<ConfigurationProperty> properties = unbound.getUnboundProperties()
			.stream()
			.filter((property) -> ROOT.isAncestorOf(property.getName()))
			.sorted()
			.toList();
		Class<?> type = binding.getTarget().getType().resolve();
		if (properties.isEmpty() || type == null) {
			return null;
		}
		StringBuilder description = new StringBuilder();
		StringBuilder action = new StringBuilder();
		for (ConfigurationProperty property : properties) {
			ConfigurationPropertyName name = property.getName();
			String key = name.getLastElement(Form.ORIGINAL);
			List<String> fields = fieldsAt(type, binding.getName(), name);
			description.append(
					describe(name.toString(), property.getValue(), property, "'" + key + "' is not a setting here"));
			action.append(NameSuggestions.didYouMean(key, fields))
				.append("Settings of '")
				.append(name.getParent())
				.append("': ")
				.append(fields.isEmpty() ? "none (it is a single value)" : String.join(", ", fields))
				.append(".\n");
		}
		return new FailureAnalysis(description.toString().stripTrailing(), action.toString().stripTrailing(), unbound);
	}

	private FailureAnalysis analyzeConversion(BindException binding, ConversionFailedException conversion) {
		ConfigurationProperty property = binding.getProperty();
		Class<?> type = conversion.getTargetType().getType();
		String value = String.valueOf(property.getValue());
		String allowed;
		String suggestion = "";
		if (type.isEnum()) {
			List<String> constants = new ArrayList<>();
			for (Object constant : type.getEnumConstants()) {
				constants.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
			}
			allowed = String.join(", ", constants);
			suggestion = NameSuggestions.didYouMean(value, constants);
		}
		else if (type == boolean.class || type == Boolean.class) {
			allowed = "true or false";
		}
		else if (type == Duration.class) {
			allowed = "a duration such as 500ms, 30s, 5m, 1h or PT1M";
		}
		else if (DataSize.class.equals(type)) {
			allowed = "a size such as 512KB or 4MB";
		}
		else if (Number.class.isAssignableFrom(ClassUtils.resolvePrimitiveIfNecessary(type))) {
			allowed = "a whole number";
		}
		else {
			allowed = "a value of type " + type.getSimpleName();
		}
		String description = describe(property.getName().toString(), value, property,
				"'" + value + "' is not " + (type.isEnum() ? "one of " : "") + allowed)
			.stripTrailing();
		return new FailureAnalysis(description, suggestion + "Allowed: " + allowed + ". Update '" + property.getName()
				+ "' in your application's configuration.", binding);
	}

	private static String describe(String property, @Nullable Object value, @Nullable ConfigurationProperty bound,
			String reason) {
		StringBuilder description = new StringBuilder("Invalid agent tool middleware configuration:\n\n");
		// An annotation attribute (such as @AgentTool(inputSchema)) stands where no
		// property declares the setting
		description.append(property.startsWith("@") ? "    Annotation: " : "    Property: ")
			.append(property)
			.append('\n');
		if (value != null) {
			description.append("    Value: \"").append(value).append("\"\n");
		}
		Origin origin = (bound != null) ? bound.getOrigin() : null;
		if (origin != null) {
			String at = bound.getName().toString().equals(property) ? "" : " (" + bound.getName() + ")";
			description.append("    Origin: ").append(origin).append(at).append('\n');
		}
		description.append("    Reason: ").append(reason).append("\n\n");
		return description.toString();
	}

	// The property in the environment, or the first one below it, as the
	// highest-precedence source has it.
	private @Nullable ConfigurationProperty find(String property) {
		if (this.environment == null) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
		ConfigurationProperty found = find(name);
		// "providers[1]" of "providers=callback,quue": the list is one property, so
		// report its origin.
		if (found == null && name.getNumberOfElements() > 0 && name.isLastElementIndexed()) {
			found = find(name.getParent());
		}
		return found;
	}

	private @Nullable ConfigurationProperty find(ConfigurationPropertyName name) {
		if (this.environment == null) {
			return null;
		}
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty exact = source.getConfigurationProperty(name);
			if (exact != null) {
				return exact;
			}
			if (source instanceof IterableConfigurationPropertySource iterable) {
				Optional<ConfigurationProperty> below = iterable.stream()
					.filter(name::isAncestorOf)
					.sorted()
					.findFirst()
					.map(source::getConfigurationProperty);
				if (below.isPresent()) {
					return below.get();
				}
			}
		}
		return null;
	}

	// The settings (dashed) of the object an unbound name would have set, walking the
	// properties class along it.
	private static List<String> fieldsAt(Class<?> propertiesType, ConfigurationPropertyName prefix,
			ConfigurationPropertyName unbound) {
		ResolvableType type = ResolvableType.forClass(propertiesType);
		int start = prefix.getNumberOfElements();
		for (int i = start; i < unbound.getNumberOfElements() - 1; i++) {
			Class<?> raw = type.resolve();
			if (raw == null) {
				return List.of();
			}
			if (Map.class.isAssignableFrom(raw)) {
				type = type.asMap().getGeneric(1);
				continue;
			}
			String element = unbound.getElement(i, Form.UNIFORM);
			PropertyDescriptor descriptor = descriptors(raw).stream()
				.filter((candidate) -> candidate.getName().equalsIgnoreCase(element))
				.findFirst()
				.orElse(null);
			if (descriptor == null || descriptor.getReadMethod() == null) {
				return List.of();
			}
			type = ResolvableType.forMethodReturnType(descriptor.getReadMethod(), raw);
		}
		Class<?> target = type.resolve();
		return (target != null) ? descriptors(target).stream()
			.map((descriptor) -> DataObjectPropertyName.toDashedForm(descriptor.getName()))
			.sorted()
			.toList() : List.of();
	}

	private static Collection<PropertyDescriptor> descriptors(Class<?> type) {
		List<PropertyDescriptor> descriptors = new ArrayList<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			if (descriptor.getReadMethod() != null && !"class".equals(descriptor.getName())) {
				descriptors.add(descriptor);
			}
		}
		return descriptors;
	}

	private static <E extends Throwable> @Nullable E findCause(Throwable failure, Class<E> type) {
		Throwable candidate = failure;
		while (candidate != null) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
			candidate = candidate.getCause();
		}
		return null;
	}

}
