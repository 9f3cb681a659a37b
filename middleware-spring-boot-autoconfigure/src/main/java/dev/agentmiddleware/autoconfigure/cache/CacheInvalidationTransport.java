package dev.agentmiddleware.autoconfigure.cache;

import dev.agentmiddleware.cache.CacheInvalidation;
import dev.agentmiddleware.cache.ToolResultCache;

/**
 * Carries cache invalidations between instances. The auto-configuration sees {@link JdbcCacheInvalidations} only
 * through this interface, so that an application without spring-jdbc never loads it.
 */
interface CacheInvalidationTransport {

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
