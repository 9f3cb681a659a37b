package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the permits of rate limits are counted: {@link InMemoryRateLimiterStore in this
 * JVM's memory} (the default; each instance of a cluster then counts on its own) or in a
 * store that several instances share, such as a database, so that a limit of 5 allows 5
 * calls across all instances.
 *
 * <p>
 * A store is asked once per limited tool, when its pipeline is built, for that tool's
 * {@link ToolLimiter}; the limiter is then asked for a permit on every call. A store that
 * cannot reach its backend throws {@link RateLimiterUnavailableException}, and the
 * {@link RateLimitMiddleware} rejects the call (or lets it run when it was built to fail
 * open). <pre>{@code
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
	 * The permits of one tool, per key. <pre>{@code
	 * RateLimitDecision decision = limiter.acquire("session-1");
	 * }</pre>
	 */
	interface ToolLimiter {

		/**
		 * Takes one permit for a key, or says when one frees up. A limiter may wait for a
		 * permit itself (up to the policy's maximum wait) or leave the wait to the caller
		 * through {@link RateLimitDecision#waitFor()}.
		 * @param key the session id or principal the limit counts per, or the empty
		 * string for a limit per tool (and for calls without a session or principal)
		 * @return the decision
		 * @throws RateLimiterUnavailableException if the permits cannot be counted, such
		 * as when the database is unreachable
		 * @throws InterruptedException if interrupted while waiting for a permit
		 */
		RateLimitDecision acquire(String key) throws InterruptedException;

	}

	/**
	 * What a {@link RateLimiterStore.ToolLimiter} decided about one call: a permit
	 * (possibly after a wait the caller sleeps), or a rejection with roughly when a
	 * permit frees up. <pre>{@code
	 * return consumed ? RateLimitDecision.granted(Duration.ZERO) : RateLimitDecision.rejected(Duration.ofSeconds(12));
	 * }</pre>
	 *
	 * @param granted whether the call may run
	 * @param waitFor how long the caller sleeps before the call runs, when granted;
	 * {@link Duration#ZERO} otherwise
	 * @param retryAfter roughly how long until a permit frees up, when rejected;
	 * {@link Duration#ZERO} otherwise
	 */
	public record RateLimitDecision(boolean granted, Duration waitFor, Duration retryAfter) {

		// The common answer, shared so that a permit allocates nothing.
		private static final RateLimitDecision GRANTED_NOW = new RateLimitDecision(true, Duration.ZERO, Duration.ZERO);

		/**
		 * Validates the decision.
		 * @throws IllegalArgumentException if a duration is negative
		 */
		public RateLimitDecision {
			Objects.requireNonNull(waitFor, "waitFor");
			Objects.requireNonNull(retryAfter, "retryAfter");
			if (waitFor.isNegative() || retryAfter.isNegative()) {
				throw new IllegalArgumentException(
						"waitFor and retryAfter must not be negative, were " + waitFor + " and " + retryAfter);
			}
		}

		/**
		 * A permit, after the caller waits.
		 * @param waitFor how long the caller sleeps first; {@link Duration#ZERO} to run
		 * at once
		 * @return the decision
		 */
		public static RateLimitDecision granted(Duration waitFor) {
			return waitFor.isZero() ? GRANTED_NOW : new RateLimitDecision(true, waitFor, Duration.ZERO);
		}

		/**
		 * A rejection.
		 * @param retryAfter roughly how long until a permit frees up
		 * @return the decision
		 */
		public static RateLimitDecision rejected(Duration retryAfter) {
			return new RateLimitDecision(false, Duration.ZERO, retryAfter);
		}

	}

	/**
	 * A {@link RateLimiterStore} could not count a permit, such as when its database is
	 * unreachable. The {@link RateLimitMiddleware} turns it into a rejection with the
	 * limit text {@value #LIMIT_TEXT} (fail closed), or runs the call when built to fail
	 * open. <pre>{@code
	 * throw new RateLimiterUnavailableException("PostgreSQL rate-limit store unreachable", ex);
	 * }</pre>
	 */
	public static class RateLimiterUnavailableException extends RuntimeException {

		/** The limit text of a call rejected because the store was unavailable. */
		public static final String LIMIT_TEXT = "rate limiter unavailable";

		/**
		 * Creates the exception.
		 * @param message what failed, without secrets or session ids
		 * @param cause the failure of the backend
		 */
		public RateLimiterUnavailableException(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
