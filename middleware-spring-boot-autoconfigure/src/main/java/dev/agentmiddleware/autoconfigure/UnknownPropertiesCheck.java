package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Fails startup when a key directly under {@code agent.middleware} belongs to no feature,
 * such as {@code agent.middleware.cahce}: without this check the typo would configure
 * nothing, silently.
 *
 * <p>
 * The known keys are not listed here: they are the groups and properties under
 * {@code agent.middleware} in every {@code META-INF/spring-configuration-metadata.json}
 * on the class path (so a feature that is switched off, or whose library is missing, is
 * still known), and the prefixes of the {@code @ConfigurationProperties} beans of the
 * context. A feature added by another module is known as soon as its properties class is.
 *
 * <p>
 * Below the first key, {@link StrictBinding} refuses unknown keys and invalid values of
 * every section as it is bound. A section whose feature is switched off has no properties
 * bean and is not bound; this check binds it the same strict way, so that a typo in it
 * fails startup as well.
 */
final class UnknownPropertiesCheck implements SmartInitializingSingleton {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName
		.of(AgentMiddlewareProperties.PREFIX);

	private final Environment environment;

	private final ListableBeanFactory beanFactory;

	UnknownPropertiesCheck(Environment environment, ListableBeanFactory beanFactory) {
		this.environment = environment;
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<String> known = knownKeys();
		Set<String> canonicalKnown = new TreeSet<>();
		known.forEach((key) -> canonicalKnown.add(ToolNames.canonical(key)));
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			boolean environmentVariables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
			iterable.stream().filter(ROOT::isAncestorOf).sorted().forEach((name) -> {
				if (!isKnown(name, canonicalKnown, environmentVariables)) {
					String key = name.getElement(ROOT.getNumberOfElements(), Form.ORIGINAL);
					String property = AgentMiddlewareProperties.PREFIX + "." + key;
					throw new InvalidToolConfigurationException(property,
							"'" + key + "' is not a key of the agent tool middleware, so it would configure nothing",
							NameSuggestions.didYouMean(key, known) + "Keys under '" + AgentMiddlewareProperties.PREFIX
									+ "': " + String.join(", ", known) + ".");
				}
			});
		}
		bindSectionsWithoutBean();
	}

	private static boolean isKnown(ConfigurationPropertyName name, Set<String> canonicalKnown,
			boolean environmentVariables) {
		int first = ROOT.getNumberOfElements();
		if (!environmentVariables) {
			return canonicalKnown.contains(name.getElement(first, Form.UNIFORM));
		}
		// AGENT_MIDDLEWARE_RATE_LIMIT_... splits 'rate-limit' into two elements: match
		// the joined rest by prefix.
		StringBuilder rest = new StringBuilder();
		for (int i = first; i < name.getNumberOfElements(); i++) {
			rest.append(name.getElement(i, Form.UNIFORM));
		}
		return canonicalKnown.stream().anyMatch((key) -> rest.toString().startsWith(key));
	}

	private Set<String> knownKeys() {
		Set<String> known = new TreeSet<>(PropertySections.onClassPath().keys());
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(ConfigurationProperties.class)) {
			ConfigurationProperties annotation = this.beanFactory.findAnnotationOnBean(beanName,
					ConfigurationProperties.class);
			Class<?> type = this.beanFactory.getType(beanName);
			if (annotation == null || type == null) {
				continue;
			}
			String prefix = !annotation.prefix().isEmpty() ? annotation.prefix() : annotation.value();
			PropertySections.addKey(prefix, known);
			if (prefix.equals(AgentMiddlewareProperties.PREFIX)) {
				for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
					if (!"class".equals(descriptor.getName())) {
						known.add(DataObjectPropertyName.toDashedForm(descriptor.getName()));
					}
				}
			}
		}
		return known;
	}

	// A section whose feature is off has no properties bean: bind it anyway, so that its
	// typos fail startup too.
	private void bindSectionsWithoutBean() {
		Set<Class<?>> bound = new HashSet<>();
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(ConfigurationProperties.class)) {
			Class<?> type = this.beanFactory.getType(beanName);
			if (type != null) {
				bound.add(ClassUtils.getUserClass(type));
			}
		}
		Binder binder = Binder.get(this.environment);
		PropertySections.onClassPath().types().forEach((prefix, typeName) -> {
			Class<?> type = loadable(typeName);
			if (type != null && !bound.contains(type)) {
				binder.bind(prefix, Bindable.ofInstance(BeanUtils.instantiateClass(type)),
						new StrictBinding().apply(BindHandler.DEFAULT));
			}
		});
	}

	private static @Nullable Class<?> loadable(String typeName) {
		try {
			Class<?> type = ClassUtils.forName(typeName, UnknownPropertiesCheck.class.getClassLoader());
			return ClassUtils.hasConstructor(type) ? type : null;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			// The section's module or one of its libraries is not on the class path:
			// nothing of it can run.
			return null;
		}
	}

}
