package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link RateLimiterStore.ToolLimiter} decided about one call: a permit (possibly after a wait the caller
 * sleeps), or a rejection with roughly when a permit frees up.
 * <pre>{@code
 * return consumed ? RateLimitDecision.granted(Duration.ZERO) : RateLimitDecision.rejected(Duration.ofSeconds(12));
 * }</pre>
 *
 * @param granted whether the call may run
 * @param waitFor how long the caller sleeps before the call runs, when granted; {@link Duration#ZERO} otherwise
 * @param retryAfter roughly how long until a permit frees up, when rejected; {@link Duration#ZERO} otherwise
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
			throw new IllegalArgumentException("waitFor and retryAfter must not be negative, were " + waitFor
					+ " and " + retryAfter);
		}
	}

	/**
	 * A permit, after the caller waits.
	 * @param waitFor how long the caller sleeps first; {@link Duration#ZERO} to run at once
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
