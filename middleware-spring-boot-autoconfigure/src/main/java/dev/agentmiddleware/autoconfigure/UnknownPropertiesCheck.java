package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.spring.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.spring.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.spring.tool.NameSuggestions;
import dev.agentmiddleware.spring.tool.ToolNames;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails startup when a key directly under {@code agent.middleware} belongs to no feature, such as
 * {@code agent.middleware.cahce}: without this check the typo would configure nothing, silently.
 *
 * <p>The known keys are not listed here: they are the groups and properties under {@code agent.middleware} in
 * every {@code META-INF/spring-configuration-metadata.json} on the class path (so a feature that is switched off, or
 * whose library is missing, is still known), and the prefixes of the {@code @ConfigurationProperties} beans of the
 * context. A feature added by another module is known as soon as its properties class is.
 */
final class UnknownPropertiesCheck implements SmartInitializingSingleton {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName
		.of(AgentMiddlewareProperties.PREFIX);

	private static final String[] METADATA = { "META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json" };

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
	}

	private static boolean isKnown(ConfigurationPropertyName name, Set<String> canonicalKnown,
			boolean environmentVariables) {
		int first = ROOT.getNumberOfElements();
		if (!environmentVariables) {
			return canonicalKnown.contains(name.getElement(first, Form.UNIFORM));
		}
		// AGENT_MIDDLEWARE_RATE_LIMIT_... splits 'rate-limit' into two elements: match the joined rest by prefix.
		StringBuilder rest = new StringBuilder();
		for (int i = first; i < name.getNumberOfElements(); i++) {
			rest.append(name.getElement(i, Form.UNIFORM));
		}
		return canonicalKnown.stream().anyMatch((key) -> rest.toString().startsWith(key));
	}

	private Set<String> knownKeys() {
		Set<String> known = new TreeSet<>();
		for (String resource : METADATA) {
			readMetadata(resource, known);
		}
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(ConfigurationProperties.class)) {
			ConfigurationProperties annotation = this.beanFactory.findAnnotationOnBean(beanName,
					ConfigurationProperties.class);
			Class<?> type = this.beanFactory.getType(beanName);
			if (annotation == null || type == null) {
				continue;
			}
			String prefix = !annotation.prefix().isEmpty() ? annotation.prefix() : annotation.value();
			addKey(prefix, known);
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

	private static void readMetadata(String resource, Set<String> known) {
		try {
			ClassLoader classLoader = UnknownPropertiesCheck.class.getClassLoader();
			Enumeration<URL> urls = classLoader.getResources(resource);
			JsonMapper mapper = JsonMapper.builder().build();
			while (urls.hasMoreElements()) {
				try (InputStream in = urls.nextElement().openStream()) {
					JsonNode metadata = mapper.readTree(in);
					for (String section : new String[] { "groups", "properties" }) {
						for (JsonNode entry : metadata.path(section)) {
							addKey(entry.path("name").asString(""), known);
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read the configuration metadata " + resource, ex);
		}
	}

	private static void addKey(String property, Set<String> known) {
		if (property.startsWith(AgentMiddlewareProperties.PREFIX + ".")) {
			String rest = property.substring(AgentMiddlewareProperties.PREFIX.length() + 1);
			int dot = rest.indexOf('.');
			known.add((dot < 0) ? rest : rest.substring(0, dot));
		}
	}

}
