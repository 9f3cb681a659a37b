package dev.agentmiddleware.cache;

/**
 * What one tool's cache has done since it was created.
 * <pre>{@code
 * CacheStatistics weather = cache.statistics().get("get_weather");
 * double hitRate = weather.hitRate();
 * }</pre>
 *
 * @param hits calls answered from the cache, including calls that waited for an identical call in flight
 * @param misses calls that ran the tool
 * @param evictions entries removed because of the size limit or the time to live (not by invalidation)
 * @param size entries currently held
 */
public record CacheStatistics(long hits, long misses, long evictions, long size) {

	/**
	 * The share of calls answered from the cache.
	 * @return hits divided by hits plus misses, {@code 0} before the first call
	 */
	public double hitRate() {
		long requests = this.hits + this.misses;
		return (requests == 0) ? 0 : (double) this.hits / requests;
	}

}
