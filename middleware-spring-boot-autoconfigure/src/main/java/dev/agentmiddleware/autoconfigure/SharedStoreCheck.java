package dev.agentmiddleware.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Fails startup when configuration implies a shared store that cannot be built, instead
 * of letting the store fall back to memory: {@code store.type: jdbc} without a
 * {@code DataSource} (approvals, threads, cache invalidations, the audit trail; the MCP
 * session and rate-limit stores say so themselves), and a store whose type is
 * {@code jdbc}, or {@code auto} while the application has a database
 * ({@code spring.datasource.url} set, or a {@code DataSource} bean), needs Spring's JDBC
 * support ({@code org.springframework:spring-jdbc}, brought by
 * {@code spring-boot-starter-jdbc}) and the JDBC store module
 * ({@code dev.agentmiddleware:middleware-jdbc}, brought by the middleware starters).
 *
 * <p>
 * Without this check an application whose {@code spring-jdbc} was dropped (a
 * {@code test}-scoped copy of it overrides the starter's compile-scoped one) starts with
 * every store in memory: each instance alone, and nothing kept over a restart, while its
 * configuration names a shared database. The failure names every affected
 * {@code store.type} property and the dependency to add.
 */
final class SharedStoreCheck implements SmartInitializingSingleton {

	static final String JDBC_CLIENT_CLASS = "org.springframework.jdbc.core.simple.JdbcClient";

	private static final String CACHE_STORE_TYPE = AgentMiddlewareProperties.PREFIX + ".cache.store.type";

	private static final String DEPRECATED_CACHE_STORE_TYPE = AgentMiddlewareProperties.PREFIX
			+ ".cache.invalidation.type";

	static final String JDBC_STORES_CLASS = "dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration";

	private static final String MCP_SERVER_CLASS = "io.modelcontextprotocol.server.McpServer";

	private final Environment environment;

	private final ListableBeanFactory beanFactory;

	private final ClassLoader classLoader;

	SharedStoreCheck(Environment environment, ListableBeanFactory beanFactory, ClassLoader classLoader) {
		this.environment = environment;
		this.beanFactory = beanFactory;
		this.classLoader = classLoader;
	}

	@Override
	public void afterSingletonsInstantiated() {
		boolean springJdbc = ClassUtils.isPresent(JDBC_CLIENT_CLASS, this.classLoader);
		boolean storeModule = ClassUtils.isPresent(JDBC_STORES_CLASS, this.classLoader);
		if (springJdbc && storeModule) {
			requireDataSourceOfJdbcStores();
			return;
		}
		boolean database = hasDatabase();
		List<String> shared = new ArrayList<>();
		for (String property : storeTypeProperties()) {
			StoreType type = storeType(property);
			if (type == StoreType.JDBC || (type == StoreType.AUTO && database)) {
				shared.add(property + "=" + type.name().toLowerCase(Locale.ROOT));
			}
		}
		if (shared.isEmpty()) {
			return;
		}
		String why = database ? "the application has a database (" + databaseDescription() + ")"
				: "a JDBC store was asked for";
		String property = shared.get(0).substring(0, shared.get(0).indexOf('='));
		if (springJdbc) {
			throw new InvalidToolConfigurationException(property,
					"the JDBC stores are in the JDBC store module (dev.agentmiddleware:middleware-jdbc), which is not on "
							+ "the class path; " + why + ", so " + String.join(", ", shared)
							+ " would keep their state in a database, and without that module they would silently stay "
							+ "in memory (one instance only, lost on restart)",
					"Add dev.agentmiddleware:middleware-jdbc (the middleware starters bring it) to the application's "
							+ "dependencies, or set each of these properties to memory.");
		}
		throw new InvalidToolConfigurationException(property,
				"the JDBC stores need Spring's JDBC support (org.springframework:spring-jdbc), which is not on the class "
						+ "path; " + why + ", so " + String.join(", ", shared)
						+ " would keep their state in a database, and without spring-jdbc they would silently stay in "
						+ "memory (one instance only, lost on restart)",
				"Add org.springframework.boot:spring-boot-starter-jdbc to the application's dependencies (and make sure "
						+ "no dependency declares org.springframework:spring-jdbc with <scope>test</scope>, which "
						+ "overrides it), or set each of these properties to memory.");
	}

	// store.type: jdbc in an application without a DataSource: the store module has
	// nothing to keep the state in
	private void requireDataSourceOfJdbcStores() {
		if (this.beanFactory.getBeanNamesForType(DataSource.class, true, false).length > 0) {
			return;
		}
		String prefix = AgentMiddlewareProperties.PREFIX;
		Map<String, String> stores = new LinkedHashMap<>();
		stores.put(prefix + ".approval", "approval");
		stores.put(prefix + ".threads", "thread");
		stores.put(prefix + ".cache", "cache invalidation");
		stores.put(prefix + ".audit", "audit");
		stores.forEach((feature, storeName) -> {
			String property = storeTypeProperty(feature + ".store.type");
			if (storeType(property) == StoreType.JDBC) {
				throw StoreType.missingDataSourceOf(property, storeName);
			}
		});
	}

	// The property that sets a store type: the cache's deprecated invalidation.type where
	// only it is set
	private String storeTypeProperty(String property) {
		return (property.equals(CACHE_STORE_TYPE) && !this.environment.containsProperty(CACHE_STORE_TYPE)
				&& this.environment.containsProperty(DEPRECATED_CACHE_STORE_TYPE)) ? DEPRECATED_CACHE_STORE_TYPE
						: property;
	}

	private StoreType storeType(String property) {
		return Binder.get(this.environment).bind(property, StoreType.class).orElse(StoreType.AUTO);
	}

	private boolean hasDatabase() {
		return StringUtils.hasText(this.environment.getProperty("spring.datasource.url"))
				|| this.beanFactory.getBeanNamesForType(DataSource.class, true, false).length > 0;
	}

	private String databaseDescription() {
		return StringUtils.hasText(this.environment.getProperty("spring.datasource.url"))
				? "spring.datasource.url is set" : "a DataSource bean";
	}

	// Every store that 'auto' puts in the application's database. The MCP sessions only
	// where an MCP server runs.
	private List<String> storeTypeProperties() {
		String prefix = AgentMiddlewareProperties.PREFIX;
		List<String> properties = new ArrayList<>(List.of(prefix + ".approval.store.type",
				prefix + ".threads.store.type", prefix + ".rate-limit.store.type", storeTypeProperty(CACHE_STORE_TYPE),
				prefix + ".audit.store.type"));
		if (ClassUtils.isPresent(MCP_SERVER_CLASS, this.classLoader)) {
			properties.add(prefix + ".mcp.sessions.store.type");
		}
		return properties;
	}

}
