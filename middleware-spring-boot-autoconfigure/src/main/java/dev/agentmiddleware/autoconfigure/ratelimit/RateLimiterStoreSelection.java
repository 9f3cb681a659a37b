package dev.agentmiddleware.autoconfigure.ratelimit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.ratelimit.InMemoryRateLimiterStore;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;

/**
 * Chooses the {@link RateLimiterStore} from
 * {@code agent.middleware.rate-limit.store.type} and the application's {@code DataSource}
 * (or, for {@code redis}, the Redis store module's bean), and says at startup which one
 * it chose and what happens while it is unavailable.
 */
final class RateLimiterStoreSelection {

	static final String TYPE_PROPERTY = ToolRateLimitProperties.PREFIX + ".store.type";

	private static final Logger logger = LoggerFactory.getLogger(RateLimiterStoreSelection.class);

	private static final String BUCKET4J_CLASS = "io.github.bucket4j.postgresql.Bucket4jPostgreSQL";

	private static final String BUCKET4J_LETTUCE_CLASS = "io.github.bucket4j.redis.lettuce.Bucket4jLettuce";

	private static final String REDIS_MODULE_CLASS = "dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration";

	private static final String LETTUCE_FACTORY_CLASS = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

	private RateLimiterStoreSelection() {
	}

	/**
	 * The store the properties ask for.
	 * @param properties the rate-limit properties
	 * @param dataSource the application's only DataSource, if any
	 * @param classLoader the application's class loader, where the optional backends are
	 * looked for
	 * @return the store, its table created when asked to
	 * @throws InvalidToolConfigurationException if {@code jdbc} is asked for and cannot
	 * be had, or {@code auto} finds PostgreSQL without Bucket4j's PostgreSQL backend (a
	 * shared store never silently becomes a local one)
	 */
	static RateLimiterStore select(ToolRateLimitProperties properties, @Nullable DataSource dataSource,
			@Nullable DatabaseRateLimiterStores database, ClassLoader classLoader) {
		StoreType type = properties.getStore().getType();
		if (type == StoreType.REDIS) {
			// The Redis store module contributes its store before this; here it could not
			throw redisUnavailable(classLoader);
		}
		return (type == StoreType.MEMORY) ? memory(properties)
				: (type == StoreType.JDBC) ? jdbc(properties, dataSource, database, classLoader)
						: auto(properties, dataSource, database, classLoader);
	}

	private static InvalidToolConfigurationException redisUnavailable(ClassLoader classLoader) {
		if (!ClassUtils.isPresent(REDIS_MODULE_CLASS, classLoader)) {
			return new InvalidToolConfigurationException(TYPE_PROPERTY, "redis",
					"the Redis rate-limit store is in the Redis store module (dev.agentmiddleware:middleware-redis), "
							+ "which is not on the classpath",
					"Add dev.agentmiddleware:middleware-redis (the middleware starters bring it) to the application's "
							+ "dependencies, or set " + TYPE_PROPERTY + " to memory or jdbc.");
		}
		if (!ClassUtils.isPresent(BUCKET4J_LETTUCE_CLASS, classLoader)) {
			return new InvalidToolConfigurationException(TYPE_PROPERTY, "redis",
					"the Redis rate-limit store needs Bucket4j's Lettuce backend, which is not on the classpath",
					"Add com.bucket4j:bucket4j_jdk17-core (8.18.0) and com.bucket4j:bucket4j_jdk17-lettuce (8.17.0) "
							+ "to the application's dependencies, or set " + TYPE_PROPERTY + " to memory or jdbc.");
		}
		if (!ClassUtils.isPresent(LETTUCE_FACTORY_CLASS, classLoader)) {
			return new InvalidToolConfigurationException(TYPE_PROPERTY, "redis",
					"the Redis rate-limit store uses Spring Boot's Redis support, which is not on the classpath",
					"Add org.springframework.boot:spring-boot-starter-data-redis and point spring.data.redis.* at "
							+ "Redis, or set " + TYPE_PROPERTY + " to memory or jdbc.");
		}
		return new InvalidToolConfigurationException(TYPE_PROPERTY, "redis",
				"the Redis rate-limit store needs a LettuceConnectionFactory bean, and the application has none",
				"Let spring-boot-starter-data-redis configure Lettuce (spring.data.redis.client-type=lettuce, the "
						+ "default; Jedis is not supported), or set " + TYPE_PROPERTY + " to memory or jdbc.");
	}

	private static RateLimiterStore auto(ToolRateLimitProperties properties, @Nullable DataSource dataSource,
			@Nullable DatabaseRateLimiterStores database, ClassLoader classLoader) {
		// No tool is limited: no reason to touch the database (nor to create a table in
		// it).
		boolean limitsAnything = !properties.getTools().isEmpty()
				|| Boolean.TRUE.equals(properties.getDefaults().getEnabled());
		if (!limitsAnything || dataSource == null || !isPostgres(productName(dataSource))) {
			return memory(properties);
		}
		// A PostgreSQL database means several instances may share it: never count alone
		// without saying so.
		if (!ClassUtils.isPresent(BUCKET4J_CLASS, classLoader)) {
			throw new InvalidToolConfigurationException(TYPE_PROPERTY, "auto",
					"the application's DataSource is PostgreSQL, so rate limits are shared there, and that needs "
							+ "Bucket4j's PostgreSQL backend, which is not on the classpath",
					"Add com.bucket4j:bucket4j_jdk17-core and com.bucket4j:bucket4j_jdk17-postgresql (8.18.0) to the "
							+ "application's dependencies, or set " + TYPE_PROPERTY
							+ " to memory (each instance then counts on its own).");
		}
		return database(properties, dataSource, database, "auto");
	}

	private static RateLimiterStore jdbc(ToolRateLimitProperties properties, @Nullable DataSource dataSource,
			@Nullable DatabaseRateLimiterStores database, ClassLoader classLoader) {
		if (dataSource == null) {
			throw new InvalidToolConfigurationException(TYPE_PROPERTY, "jdbc",
					"the shared rate-limit store needs a DataSource, and the application has none",
					"Configure spring.datasource.url (PostgreSQL) with spring-jdbc on the classpath, or set "
							+ TYPE_PROPERTY + " to memory (each instance then counts on its own).");
		}
		if (!ClassUtils.isPresent(BUCKET4J_CLASS, classLoader)) {
			throw new InvalidToolConfigurationException(TYPE_PROPERTY, "jdbc",
					"the shared rate-limit store needs Bucket4j's PostgreSQL backend, which is not on the classpath",
					"Add com.bucket4j:bucket4j_jdk17-core and com.bucket4j:bucket4j_jdk17-postgresql (8.18.0) to the "
							+ "application's dependencies, or set " + TYPE_PROPERTY + " to memory.");
		}
		String product = productName(dataSource);
		if (!isPostgres(product)) {
			throw new InvalidToolConfigurationException(TYPE_PROPERTY, "jdbc",
					"the shared rate-limit store supports PostgreSQL only, and the DataSource is " + product,
					"Point spring.datasource.url at PostgreSQL, or set " + TYPE_PROPERTY
							+ " to memory (each instance then counts on its own) or auto (memory on other databases).");
		}
		return database(properties, dataSource, database, "jdbc");
	}

	private static RateLimiterStore database(ToolRateLimitProperties properties, DataSource dataSource,
			@Nullable DatabaseRateLimiterStores database, String type) {
		if (database == null) {
			throw new InvalidToolConfigurationException(TYPE_PROPERTY, type,
					"rate limits shared in the database need the JDBC store module (dev.agentmiddleware:middleware-jdbc), "
							+ "which is not on the classpath",
					"Add dev.agentmiddleware:middleware-jdbc (the middleware starters bring it) to the application's "
							+ "dependencies, or set " + TYPE_PROPERTY
							+ " to memory (each instance then counts on its own).");
		}
		return database.create(dataSource, properties.getStore().isInitializeSchema());
	}

	private static RateLimiterStore memory(ToolRateLimitProperties properties) {
		return InMemoryRateLimiterStore.create(Ticker.systemTicker(), properties.getMaxTrackedKeys());
	}

	static void log(RateLimiterStore store, ToolRateLimitProperties.OnUnavailable onUnavailable) {
		if (store instanceof InMemoryRateLimiterStore) {
			logger.info("Rate limits are counted in memory, per instance (" + TYPE_PROPERTY
					+ "=jdbc shares them on PostgreSQL, =redis on Redis)");
		}
		else if (onUnavailable == ToolRateLimitProperties.OnUnavailable.ALLOW) {
			logger.warn(
					"Rate limits are shared in {}; while it is unreachable calls run WITHOUT a limit ({}"
							+ ".store.on-unavailable=allow, fail open)",
					store.description(), ToolRateLimitProperties.PREFIX);
		}
		else {
			logger.info("Rate limits are shared in {}; while it is unreachable calls are rejected as rate limited "
					+ "(fail closed)", store.description());
		}
	}

	static boolean isPostgres(String productName) {
		return productName.toLowerCase(Locale.ROOT).contains("postgres");
	}

	static String productName(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return connection.getMetaData().getDatabaseProductName();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(
					"Cannot connect to the database to choose the rate-limit store: " + ex.getMessage(), ex);
		}
	}

}
