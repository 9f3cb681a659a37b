package dev.agentmiddleware.ratelimit;

/**
 * Where the permits of rate limits are counted: {@link InMemoryRateLimiterStore in this JVM's memory} (the default;
 * each instance of a cluster then counts on its own) or in a store that several instances share, such as a
 * database, so that a limit of 5 allows 5 calls across all instances.
 *
 * <p>A store is asked once per limited tool, when its pipeline is built, for that tool's {@link ToolLimiter}; the
 * limiter is then asked for a permit on every call. A store that cannot reach its backend throws
 * {@link RateLimiterUnavailableException}, and the {@link RateLimitMiddleware} rejects the call (or lets it run when
 * it was built to fail open).
 * <pre>{@code
 * RateLimitMiddleware rateLimit = RateLimitMiddleware.builder().policies(policies)
 *     .store(sharedStore)
 *     .build();
 * }</pre>
 */
public interface RateLimiterStore {

	/**
	 * The limiter of one tool under its policy.
	 * @param toolName the tool
	 * @param policy the tool's rate limit
	 * @return the limiter, asked for a permit on every call of the tool
	 */
	ToolLimiter limiter(String toolName, RateLimitPolicy policy);

	/**
	 * The store in a few words for the startup log, such as {@code memory}.
	 * @return the description
	 */
	String description();

	/**
	 * The permits of one tool, per key.
	 * <pre>{@code
	 * RateLimitDecision decision = limiter.acquire("session-1");
	 * }</pre>
	 */
	interface ToolLimiter {

		/**
		 * Takes one permit for a key, or says when one frees up. A limiter may wait for a permit itself (up to the
		 * policy's maximum wait) or leave the wait to the caller through {@link RateLimitDecision#waitFor()}.
		 * @param key the session id or principal the limit counts per, or the empty string for a limit per tool
		 * (and for calls without a session or principal)
		 * @return the decision
		 * @throws RateLimiterUnavailableException if the permits cannot be counted, such as when the database is
		 * unreachable
		 * @throws InterruptedException if interrupted while waiting for a permit
		 */
		RateLimitDecision acquire(String key) throws InterruptedException;

	}

}
