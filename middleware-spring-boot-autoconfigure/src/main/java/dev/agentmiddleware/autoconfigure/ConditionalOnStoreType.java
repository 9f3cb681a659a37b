package dev.agentmiddleware.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when a feature's {@code <prefix>.store.type} (default {@code auto}) is one of
 * the given {@link StoreType}s. It does not look for a {@code DataSource}: combine it
 * with {@code @ConditionalOnBean} / {@code @ConditionalOnMissingBean(DataSource.class)}
 * as {@link StoreType} shows. A value that is not a store type matches nothing, and
 * binding the properties then fails startup naming the property and the valid types.
 * <pre>{@code
 * &#64;ConditionalOnStoreType(prefix = "agent.middleware.approval", value = { StoreType.AUTO, StoreType.JDBC })
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnStoreTypeCondition.class)
public @interface ConditionalOnStoreType {

	/**
	 * The feature's prefix, such as {@code agent.middleware.approval}.
	 * @return the prefix
	 */
	String prefix();

	/**
	 * The store types that match.
	 * @return the types
	 */
	StoreType[] value();

	/**
	 * A deprecated property that names the store type while {@code <prefix>.store.type}
	 * is not set, such as {@code agent.middleware.cache.invalidation.type}.
	 * @return the deprecated property, or empty for none
	 */
	String deprecatedProperty() default "";

	/**
	 * Where a feature keeps its shared state, selected like Spring Boot's
	 * {@code spring.cache.type} by one property, {@code <feature>.store.type}, with
	 * <b>one rule</b>: {@code auto} is JDBC when the application has a
	 * {@code DataSource}, memory otherwise; {@code jdbc} without a {@code DataSource}
	 * fails startup naming the property. Approvals, threads, cache invalidations, rate
	 * limits and MCP sessions use it; a feature adopts it with a {@code StoreType} field
	 * in its properties' {@code store} block and {@link ConditionalOnStoreType} on its
	 * store configurations: <pre>{@code
	 * &#64;Configuration(proxyBeanMethods = false)
	 *
	
	&#64;ConditionalOnBean(DataSource.class)
	 * &#64;ConditionalOnStoreType(prefix = "agent.middleware.threads", value = { StoreType.AUTO, StoreType.JDBC })
	 * static class JdbcThreadStoreConfiguration { ... }
	 * }</pre> {@code jdbc} without a {@code DataSource} is reported once for every store
	 * by the Boot module's store check ({@link StoreType#missingDataSource}), never by a
	 * configuration class that throws.
	 */
	public enum StoreType {

		/**
		 * JDBC when the application has a {@code DataSource}, memory otherwise (the
		 * default).
		 */
		AUTO,

		/** In this JVM's memory: lost on restart and not shared between instances. */
		MEMORY,

		/**
		 * In the application's database, through its {@code DataSource}; shared between
		 * instances.
		 */
		JDBC,

		/**
		 * In Redis, through Spring Boot's Lettuce connection factory
		 * ({@code spring.data.redis.*}); shared between instances. Rate limits only:
		 * every other feature refuses it when its properties are bound.
		 */
		REDIS;

		/**
		 * The store this type resolves to, by the one rule.
		 * @param dataSourceAvailable whether the application has a {@code DataSource}
		 * @return {@link #JDBC} or {@link #MEMORY}; {@link #JDBC} also when it was asked
		 * for without a {@code DataSource}, which {@link #missingDataSource} reports
		 */
		public StoreType resolve(boolean dataSourceAvailable) {
			return (this == JDBC || (this == AUTO && dataSourceAvailable)) ? JDBC : MEMORY;
		}

		/**
		 * Fails startup when a feature that keeps its state in memory or a database only
		 * is given {@link #REDIS}; called from the feature's {@code validate}.
		 * <pre>{@code
		 * this.store.getType().requireMemoryOrJdbc(checks.property("store.type"));
		 * }</pre>
		 * @param property the feature's store-type property, such as
		 * {@code agent.middleware.approval.store.type}
		 * @throws InvalidToolConfigurationException if this is {@link #REDIS}, naming the
		 * property and the fix
		 */
		public void requireMemoryOrJdbc(String property) {
			if (this == REDIS) {
				throw new InvalidToolConfigurationException(property, "redis",
						"redis is a store for rate limits only (agent.middleware.rate-limit.store.type)",
						"Set '" + property + "' to auto, memory or jdbc.");
			}
		}

		/**
		 * The startup failure of {@code store.type: jdbc} in an application without a
		 * {@code DataSource}.
		 * @param prefix the feature's prefix, such as {@code agent.middleware.threads}
		 * @param storeName what is stored, such as {@code thread}
		 * @return the failure, naming {@code <prefix>.store.type} and the fix
		 */
		public static InvalidToolConfigurationException missingDataSource(String prefix, String storeName) {
			return missingDataSourceOf(prefix + ".store.type", storeName);
		}

		/**
		 * The startup failure of a store type property set to {@code jdbc} in an
		 * application without a {@code DataSource}.
		 * @param property the property, such as {@code agent.middleware.cache.store.type}
		 * @param storeName what is stored, such as {@code cache invalidation}
		 * @return the failure, naming the property and the fix
		 */
		public static InvalidToolConfigurationException missingDataSourceOf(String property, String storeName) {
			return new InvalidToolConfigurationException(property,
					"the JDBC " + storeName + " store needs a DataSource, and the application has none",
					"Add a DataSource (spring-boot-starter-jdbc and a database driver, with spring.datasource.*), or "
							+ "set '" + property + "' to auto or memory.");
		}

	}

	/**
	 * The {@code store} block of a feature's properties, the one place its
	 * {@link StoreType} is chosen ({@code <feature>.store.type}); a feature whose store
	 * has more settings extends it. <pre>{@code
	 * private final StoreSettings store = new StoreSettings();
	 *
	 * public StoreSettings getStore() {
	 *     return this.store;
	 * }
	 * }</pre>
	 */
	class StoreSettings {

		/**
		 * Which store to use: auto (JDBC when a DataSource exists, else memory), memory
		 * or jdbc.
		 */
		private StoreType type = StoreType.AUTO;

		public StoreType getType() {
			return this.type;
		}

		public void setType(StoreType type) {
			this.type = type;
		}

	}

}
