package dev.agentmiddleware.cache;

import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;

/**
 * How one tool's results are cached: for how long, how many, and who shares them.
 * <pre>{@code
 * CachePolicy policy = new CachePolicy(Duration.ofMinutes(5), 1000, CacheScope.SESSION);
 * }</pre>
 *
 * @param ttl how long a result is kept after it was computed, to within a hundredth of it
 * (it counts from the start of a call that took less than that); positive
 * @param maxSize how many results of the tool are kept at most, across all scopes;
 * positive
 * @param scope who shares the results
 */
public record CachePolicy(Duration ttl, long maxSize, CacheScope scope) {

	/** The default time to live: five minutes. */
	public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);

	/** The default maximum number of entries per tool: 1000. */
	public static final long DEFAULT_MAX_SIZE = 1000;

	/** Five minutes, 1000 entries, per session. */
	public static final CachePolicy DEFAULT = new CachePolicy(DEFAULT_TTL, DEFAULT_MAX_SIZE, CacheScope.SESSION);

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if the time to live or the size is not positive
	 */
	public CachePolicy {
		Objects.requireNonNull(ttl, "ttl");
		Objects.requireNonNull(scope, "scope");
		if (ttl.isNegative() || ttl.isZero()) {
			throw new InvalidPolicyException("ttl", "Cache ttl must be positive, was " + ttl);
		}
		if (maxSize < 1) {
			throw new InvalidPolicyException("maxSize", "Cache maxSize must be at least 1, was " + maxSize
					+ "; to turn caching off for a tool, do not give it a policy");
		}
	}

	/**
	 * Who shares the cached results of a tool. <pre>{@code
	 * CachePolicy perUser = new CachePolicy(Duration.ofMinutes(10), 500, CacheScope.PRINCIPAL);
	 * }</pre>
	 */
	public enum CacheScope {

		/**
		 * Each session (conversation, thread, MCP session) has its own entries; the safe
		 * default. A call without a session id is not cached.
		 */
		SESSION,

		/**
		 * Each principal has its own entries, shared by all of its sessions. A call
		 * without a principal is not cached.
		 */
		PRINCIPAL,

		/**
		 * One set of entries for every caller. Only for results that do not depend on who
		 * asks.
		 */
		GLOBAL

	}

}
