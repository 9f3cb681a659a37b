package dev.agentmiddleware.autoconfigure.ratelimit;

import javax.sql.DataSource;

import dev.agentmiddleware.ratelimit.RateLimiterStore;

/**
 * Makes the {@link RateLimiterStore} that shares rate limits in the application's
 * database: the bean the JDBC store module contributes (Bucket4j's PostgreSQL backend)
 * when {@code agent.middleware.rate-limit.store.type} is {@code jdbc}, or {@code auto} on
 * PostgreSQL. Without one, those types fail startup naming what to add: a shared store
 * never silently becomes a local one. <pre>{@code
 * &#64;Bean
 * DatabaseRateLimiterStores databaseRateLimiterStores() {
 *     return (dataSource, initializeSchema) -> new MyDatabaseRateLimiterStore(dataSource);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface DatabaseRateLimiterStores {

	/**
	 * Makes the store on a database.
	 * @param dataSource the application's database, PostgreSQL
	 * @param initializeSchema whether to create the store's table when it is missing
	 * @return the store
	 */
	RateLimiterStore create(DataSource dataSource, boolean initializeSchema);

}
