package dev.agentmiddleware.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The sections of {@code agent.middleware} (the root itself, {@code approval},
 * {@code cache}, ...) and the {@code @ConfigurationProperties} class that binds each, as
 * every {@code META-INF/spring-configuration-metadata.json} on the class path lists them;
 * and every key directly under {@code agent.middleware} those files know. A section a
 * module adds is known as soon as its properties class is compiled with the configuration
 * processor.
 */
final class PropertySections {

	static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(AgentMiddlewareProperties.PREFIX);

	private static final String[] METADATA = { "META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json" };

	private static volatile @Nullable PropertySections onClassPath;

	private final Map<String, String> types;

	private final Set<String> keys;

	private PropertySections(Map<String, String> types, Set<String> keys) {
		this.types = Collections.unmodifiableMap(types);
		this.keys = Collections.unmodifiableSet(keys);
	}

	/**
	 * The sections of the metadata on the class path of this class, read once.
	 * @return the sections
	 */
	static PropertySections onClassPath() {
		PropertySections sections = onClassPath;
		if (sections == null) {
			sections = read(PropertySections.class.getClassLoader());
			onClassPath = sections;
		}
		return sections;
	}

	/**
	 * Sections as given, for tests of what binding leaves to a deeper section.
	 * @param types each section's prefix and the name of its class
	 * @return the sections
	 */
	static PropertySections of(Map<String, String> types) {
		Set<String> keys = new TreeSet<>();
		types.keySet().forEach((prefix) -> addKey(prefix, keys));
		return new PropertySections(new TreeMap<>(types), keys);
	}

	/**
	 * Each section's prefix ({@code agent.middleware}, {@code agent.middleware.approval},
	 * ...) and the name of the class that binds it, sorted by prefix.
	 * @return the sections
	 */
	Map<String, String> types() {
		return this.types;
	}

	/**
	 * The keys directly under {@code agent.middleware} that the metadata knows: the
	 * sections and the root's own settings.
	 * @return the keys, sorted
	 */
	Set<String> keys() {
		return this.keys;
	}

	/**
	 * Whether a name lies in a section other than {@code section} and deeper than it, so
	 * that binding {@code section} leaves it to that section's class.
	 * @param section the prefix being bound
	 * @param name a name under it
	 * @return whether another section owns the name
	 */
	boolean belongsToDeeperSection(ConfigurationPropertyName section, ConfigurationPropertyName name) {
		for (String prefix : this.types.keySet()) {
			ConfigurationPropertyName other = ConfigurationPropertyName.of(prefix);
			if (section.isAncestorOf(other) && (other.equals(name) || other.isAncestorOf(name))) {
				return true;
			}
		}
		return false;
	}

	private static PropertySections read(ClassLoader classLoader) {
		Map<String, String> types = new TreeMap<>();
		Set<String> keys = new TreeSet<>();
		JsonMapper mapper = JsonMapper.builder().build();
		for (String resource : METADATA) {
			try {
				Enumeration<URL> urls = classLoader.getResources(resource);
				while (urls.hasMoreElements()) {
					try (InputStream in = urls.nextElement().openStream()) {
						JsonNode metadata = mapper.readTree(in);
						for (JsonNode group : metadata.path("groups")) {
							String name = group.path("name").asString("");
							String type = group.path("type").asString("");
							// A group without a source method is a
							// @ConfigurationProperties class, not a nested group.
							if (isUnderRoot(name) && !type.isEmpty() && group.path("sourceMethod").isMissingNode()) {
								types.put(name, type);
							}
						}
						for (String section : new String[] { "groups", "properties" }) {
							for (JsonNode entry : metadata.path(section)) {
								addKey(entry.path("name").asString(""), keys);
							}
						}
					}
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot read the configuration metadata " + resource, ex);
			}
		}
		return new PropertySections(types, keys);
	}

	private static boolean isUnderRoot(String name) {
		return name.equals(AgentMiddlewareProperties.PREFIX) || name.startsWith(AgentMiddlewareProperties.PREFIX + ".");
	}

	/**
	 * Adds the key directly under {@code agent.middleware} of a property or prefix, if it
	 * has one.
	 * @param property a property or prefix
	 * @param keys the keys to add to
	 */
	static void addKey(String property, Set<String> keys) {
		if (property.startsWith(AgentMiddlewareProperties.PREFIX + ".")) {
			String rest = property.substring(AgentMiddlewareProperties.PREFIX.length() + 1);
			int dot = rest.indexOf('.');
			keys.add((dot < 0) ? rest : rest.substring(0, dot));
		}
	}

}
