package dev.agentmiddleware.readme;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property tables of the root README against the code: no property documented twice,
 * every documented section and key exists (in the configuration metadata and on its
 * properties class), and every documented default (the {@code [..]} after a key, or the
 * {@code default} column) equals the value a fresh properties object has. A default given
 * in words ({@code [read-only tools]}) is accepted only where the real default is "not
 * set", as the built-in's own rule then decides.
 */
class ReadmePropertyTablesTests {

	private static final Pattern KEY = Pattern.compile("^`([a-z][a-z0-9-]*(?:\\.[a-z*][a-z0-9-]*)*)`");

	private static final Pattern DEFAULT = Pattern.compile("\\[([^\\]]*)](?!\\()");

	private final Metadata metadata = Metadata.read();

	@Test
	void theBuiltInTableDocumentsEachSectionOnceWithItsRealKeysAndDefaults() {
		List<Readme.Row> rows = Readme.documentedTable("prefix `agent.middleware.`",
				"keys (`defaults.*` and " + "`tools.<tool-name>.*` unless marked global)");
		assertThat(rows).hasSizeGreaterThanOrEqualTo(8);
		Set<String> prefixes = new HashSet<>();
		List<String> problems = new ArrayList<>();
		for (Readme.Row row : rows) {
			String prefix = AgentMiddlewareProperties.PREFIX + "." + row.cells().get(0).replace("`", "");
			if (!prefixes.add(prefix)) {
				problems.add(row + ": '" + prefix + "' is documented twice");
			}
			String type = this.metadata.sections.get(prefix);
			if (type == null) {
				problems
					.add(row + ": '" + prefix + "' is no section of the metadata " + this.metadata.sections.keySet());
				continue;
			}
			Object fresh = BeanUtils.instantiateClass(ClassUtils.resolveClassName(type, null));
			String keys = row.cells().get(1);
			boolean globalOnly = keys.startsWith("global only");
			for (String group : split(keys, ';')) {
				boolean global = globalOnly || group.strip().startsWith("global");
				for (String item : split(group, ',')) {
					check(row, prefix, fresh, global, item, problems);
				}
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void theMcpTableDocumentsEachPropertyOnceWithItsRealDefault() {
		assertPropertyTable("property", "default", "what it does");
	}

	@Test
	void theBudgetTableDocumentsEachPropertyOnceWithItsRealDefault() {
		assertPropertyTable("budget property", "default", "what it does");
	}

	@Test
	void theAuditTableDocumentsEachPropertyOnceWithItsRealDefault() {
		assertPropertyTable("audit property", "default", "what it does");
	}

	private void assertPropertyTable(String... header) {
		List<Readme.Row> rows = Readme.documentedTable(header);
		assertThat(rows).isNotEmpty();
		Set<String> properties = new HashSet<>();
		List<String> problems = new ArrayList<>();
		for (Readme.Row row : rows) {
			String property = row.cells().get(0).replace("`", "");
			if (!properties.add(property)) {
				problems.add(row + ": '" + property + "' is documented twice");
			}
			if (!this.metadata.properties.contains(property)) {
				problems.add(row + ": '" + property + "' is no property of the metadata");
				continue;
			}
			String section = this.metadata.sectionOf(property);
			Object fresh = BeanUtils
				.instantiateClass(ClassUtils.resolveClassName(this.metadata.sections.get(section), null));
			Object real = new BeanWrapperImpl(fresh).getPropertyValue(camel(property.substring(section.length() + 1)));
			String documented = row.cells().get(1);
			// A list default is written as its entries with wildcards
			// (`http(s)://localhost:*`); only scalars compare.
			if (!(real instanceof Collection)) {
				compare(row + ": " + property, documented.replace("`", ""), real, problems);
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void theAgentBuiltInsTableNamesRealSwitches() {
		List<Readme.Row> rows = Readme.documentedTable("built-in", "what it does", "switch");
		assertThat(rows).isNotEmpty();
		for (Readme.Row row : rows) {
			assertThat(this.metadata.properties).as("%s", row).contains(row.cells().get(2).replace("`", ""));
		}
	}

	private void check(Readme.Row row, String prefix, Object fresh, boolean global, String item,
			List<String> problems) {
		String text = item.strip().replaceFirst("^global( only)?\\s*", "").replaceFirst("^see [^:]*:\\s*", "");
		Matcher key = KEY.matcher(text);
		if (!key.find()) {
			return;
		}
		String path = (global ? "" : "defaults.") + key.group(1);
		String where = row + ": " + prefix + "." + path;
		BeanWrapperImpl properties = new BeanWrapperImpl(fresh);
		if (path.endsWith(".*")) {
			String group = path.substring(0, path.length() - 2);
			if (!properties.isReadableProperty(camel(group))) {
				problems.add(where + " names no group of " + fresh.getClass().getSimpleName());
			}
			return;
		}
		if (!properties.isReadableProperty(camel(path))) {
			problems.add(where + " is no setting of " + fresh.getClass().getSimpleName());
			return;
		}
		Matcher documented = DEFAULT.matcher(text.substring(key.end()));
		String value = null;
		while (documented.find()) {
			value = documented.group(1);
		}
		if (value != null) {
			compare(where, value, properties.getPropertyValue(camel(path)), problems);
		}
	}

	private static void compare(String where, String documented, @Nullable Object real, List<String> problems) {
		String text = documented.replace("`", "").strip();
		if (text.startsWith("none")) {
			if (real != null && !(real instanceof Collection<?> collection && collection.isEmpty())
					&& !(real instanceof Map<?, ?> map && map.isEmpty())) {
				problems.add(where + ": documented [" + documented + "], but the default is " + real);
			}
			return;
		}
		if (real == null) {
			// Not set: the built-in's own rule decides, which the README says in words.
			if (!text.contains(" ")) {
				problems.add(where + ": documented [" + documented + "], but the default is not set");
			}
			return;
		}
		if (real instanceof Collection<?> collection) {
			List<String> entries = new ArrayList<>();
			for (Object entry : collection) {
				entries.add((entry instanceof Class<?> type) ? type.getSimpleName() : String.valueOf(entry));
			}
			List<String> written = new ArrayList<>();
			for (String entry : text.split(",")) {
				written.add(entry.strip());
			}
			if (!written.equals(entries)) {
				problems.add(where + ": documented [" + documented + "], but the default is " + entries);
			}
			return;
		}
		Object converted;
		try {
			converted = ApplicationConversionService.getSharedInstance().convert(text, real.getClass());
		}
		catch (RuntimeException ex) {
			problems.add(where + ": documented [" + documented + "] is no " + real.getClass().getSimpleName()
					+ "; the default is " + real);
			return;
		}
		if (!real.equals(converted)) {
			problems.add(where + ": documented [" + documented + "], but the default is " + real);
		}
	}

	// Splits at a separator outside brackets, parentheses and backticks.
	private static List<String> split(String text, char separator) {
		List<String> parts = new ArrayList<>();
		int depth = 0;
		boolean code = false;
		StringBuilder part = new StringBuilder();
		for (char c : text.toCharArray()) {
			if (c == '`') {
				code = !code;
			}
			else if (!code && (c == '[' || c == '(')) {
				depth++;
			}
			else if (!code && (c == ']' || c == ')')) {
				depth--;
			}
			if (c == separator && depth == 0 && !code) {
				parts.add(part.toString());
				part.setLength(0);
			}
			else {
				part.append(c);
			}
		}
		parts.add(part.toString());
		return parts;
	}

	// "defaults.max-attempts" -> "defaults.maxAttempts"
	private static String camel(String dashed) {
		StringBuilder camel = new StringBuilder();
		boolean upper = false;
		for (char c : dashed.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				camel.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return camel.toString();
	}

	/**
	 * The sections (prefix to properties class) and property names under
	 * agent.middleware, from the metadata.
	 */
	private record Metadata(Map<String, String> sections, Set<String> properties) {

		static Metadata read() {
			Map<String, String> sections = new HashMap<>();
			Set<String> properties = new HashSet<>();
			JsonMapper mapper = JsonMapper.builder().build();
			// Every module publishes the metadata of its own properties
			try {
				Enumeration<URL> resources = Metadata.class.getClassLoader()
					.getResources("META-INF/spring-configuration-metadata.json");
				while (resources.hasMoreElements()) {
					try (InputStream in = resources.nextElement().openStream()) {
						JsonNode metadata = mapper.readTree(in);
						for (JsonNode group : metadata.path("groups")) {
							if (group.path("sourceMethod").isMissingNode()) {
								sections.put(group.path("name").asString(), group.path("type").asString());
							}
						}
						for (JsonNode property : metadata.path("properties")) {
							properties.add(property.path("name").asString());
						}
					}
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
			return new Metadata(sections, properties);
		}

		String sectionOf(String property) {
			String section = null;
			for (String prefix : this.sections.keySet()) {
				if (property.startsWith(prefix + ".") && (section == null || prefix.length() > section.length())) {
					section = prefix;
				}
			}
			return section;
		}

	}

}
