package dev.agentmiddleware.autoconfigure.cache;

import dev.agentmiddleware.cache.CacheInvalidation;
import dev.agentmiddleware.cache.ToolResultCache;

/**
 * Carries cache invalidations between instances: the bean a store module contributes (the
 * JDBC module's, through the application's database) so that a write on one instance
 * invalidates the cached reads of every other; without one, invalidations stay in the
 * instance that made them. <pre>{@code
 * &#64;Bean
 * CacheInvalidationTransport cacheInvalidations(DataSource dataSource) {
 *     return new JdbcCacheInvalidations(dataSource, Duration.ofSeconds(1));
 * }
 * }</pre>
 */
public interface CacheInvalidationTransport {

	/**
	 * Sends an invalidation made on this instance to the others.
	 * @param invalidation the invalidation
	 */
	void publish(CacheInvalidation invalidation);

	/**
	 * Starts applying the other instances' invalidations to this instance's cache.
	 * @param cache the cache
	 */
	void start(ToolResultCache cache);

	/**
	 * How invalidations travel, for the startup log.
	 * @return the description
	 */
	String description();

}
