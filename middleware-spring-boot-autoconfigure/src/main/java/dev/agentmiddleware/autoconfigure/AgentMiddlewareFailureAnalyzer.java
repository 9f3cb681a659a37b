package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agentmiddleware.spring.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.spring.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.spring.tool.NameSuggestions;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindException;
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
import org.springframework.core.env.Environment;

/**
 * Turns a startup failure caused by the middleware's configuration into Spring Boot's "APPLICATION FAILED TO START"
 * report: the property, its value and origin (file and line), the reason, and the fix, with "did you mean ...?"
 * where a name is misspelt. It reports an {@link InvalidToolConfigurationException}, and the fields under
 * {@code agent.middleware} that the built-ins' properties left unbound (typos such as
 * {@code agent.middleware.cache.tools.lookup-order.tll}).
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
			ConfigurationProperty bound = find(invalid.getProperty());
			Object value = (invalid.getValue() != null) ? invalid.getValue()
					: (bound != null) ? bound.getValue() : null;
			String description = describe(invalid.getProperty(), value, bound, invalid.getReason()).stripTrailing();
			return new FailureAnalysis(description, invalid.getAction(), invalid);
		}
		UnboundConfigurationPropertiesException unbound = findCause(failure,
				UnboundConfigurationPropertiesException.class);
		if (unbound != null) {
			return analyzeUnbound(unbound, findCause(failure, ConfigurationPropertiesBindException.class));
		}
		return null;
	}

	private @Nullable FailureAnalysis analyzeUnbound(UnboundConfigurationPropertiesException unbound,
			@Nullable ConfigurationPropertiesBindException binding) {
		List<ConfigurationProperty> properties = unbound.getUnboundProperties()
			.stream()
			.filter((property) -> ROOT.isAncestorOf(property.getName()))
			.sorted()
			.toList();
		if (properties.isEmpty() || binding == null) {
			return null;
		}
		StringBuilder description = new StringBuilder();
		StringBuilder action = new StringBuilder();
		for (ConfigurationProperty property : properties) {
			ConfigurationPropertyName name = property.getName();
			String key = name.getLastElement(Form.ORIGINAL);
			List<String> fields = fieldsAt(binding.getBeanType(), binding.getAnnotation().prefix(), name);
			description.append(describe(name.toString(), property.getValue(), property,
					"'" + key + "' is not a setting here"));
			action.append(NameSuggestions.didYouMean(key, fields))
				.append("Settings of '")
				.append(name.getParent())
				.append("': ")
				.append(String.join(", ", fields))
				.append(".\n");
		}
		return new FailureAnalysis(description.toString().stripTrailing(), action.toString().stripTrailing(),
				unbound);
	}

	private static String describe(String property, @Nullable Object value, @Nullable ConfigurationProperty bound,
			String reason) {
		StringBuilder description = new StringBuilder("Invalid agent tool middleware configuration:\n\n");
		description.append("    Property: ").append(property).append('\n');
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

	// The property in the environment, or the first one below it, as the highest-precedence source has it.
	private @Nullable ConfigurationProperty find(String property) {
		if (this.environment == null) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
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

	// The settings (dashed) of the object an unbound name would have set, walking the properties class along it.
	private static List<String> fieldsAt(Class<?> propertiesType, String prefix, ConfigurationPropertyName unbound) {
		ResolvableType type = ResolvableType.forClass(propertiesType);
		int start = ConfigurationPropertyName.of(prefix).getNumberOfElements();
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
