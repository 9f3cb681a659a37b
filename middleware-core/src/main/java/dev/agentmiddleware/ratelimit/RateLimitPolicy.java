package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.internal.DurationText;
import org.jspecify.annotations.Nullable;

/**
 * The rate limit of one tool: at most {@code limitForPeriod} calls per {@code limitRefreshPeriod}, counted per
 * {@link RateLimitKey key}, and optionally a budget of calls per session that is never refilled while the session
 * lives.
 * <pre>{@code
 * RateLimitPolicy policy = RateLimitPolicy.of(5, Duration.ofMinutes(1))
 *     .withKey(RateLimitKey.TOOL_AND_SESSION)
 *     .withMaxWait(Duration.ofMillis(500))
 *     .withMaxCallsPerSession(20);
 * }</pre>
 *
 * @param limitForPeriod how many calls each period allows, at least 1
 * @param limitRefreshPeriod how often the permits refill, positive
 * @param maxWait how long a call may wait for a permit before it is rejected; {@link Duration#ZERO} rejects at once
 * @param key what the limit counts calls per
 * @param maxCallsPerSession how many calls of the tool each session may make in all, or {@code null} for no budget;
 * calls without a session id have no budget
 */
public record RateLimitPolicy(int limitForPeriod, Duration limitRefreshPeriod, Duration maxWait, RateLimitKey key,
		@Nullable Integer maxCallsPerSession) {

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if a value is out of range, with a message that names it
	 */
	public RateLimitPolicy {
		if (limitForPeriod < 1) {
			throw new InvalidPolicyException("limitForPeriod",
					"limitForPeriod must be at least 1, was " + limitForPeriod);
		}
		Objects.requireNonNull(limitRefreshPeriod, "limitRefreshPeriod");
		if (limitRefreshPeriod.isNegative() || limitRefreshPeriod.isZero()) {
			throw new InvalidPolicyException("limitRefreshPeriod",
					"limitRefreshPeriod must be positive, was " + limitRefreshPeriod);
		}
		Objects.requireNonNull(maxWait, "maxWait");
		if (maxWait.isNegative()) {
			throw new InvalidPolicyException("maxWait", "maxWait must not be negative, was " + maxWait);
		}
		Objects.requireNonNull(key, "key");
		if (maxCallsPerSession != null && maxCallsPerSession < 1) {
			throw new InvalidPolicyException("maxCallsPerSession",
					"maxCallsPerSession must be at least 1 (or null for no budget), was " + maxCallsPerSession);
		}
	}

	/**
	 * A policy of {@code limitForPeriod} calls per {@code limitRefreshPeriod} for all calls of the tool, failing
	 * fast, with no session budget.
	 * @param limitForPeriod how many calls each period allows
	 * @param limitRefreshPeriod how often the permits refill
	 * @return the policy
	 */
	public static RateLimitPolicy of(int limitForPeriod, Duration limitRefreshPeriod) {
		return new RateLimitPolicy(limitForPeriod, limitRefreshPeriod, Duration.ZERO, RateLimitKey.TOOL, null);
	}

	/**
	 * A copy with another maximum wait for a permit.
	 * @param maxWait how long a call may wait; {@link Duration#ZERO} rejects at once
	 * @return the changed copy
	 */
	public RateLimitPolicy withMaxWait(Duration maxWait) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, maxWait, this.key,
				this.maxCallsPerSession);
	}

	/**
	 * A copy that counts calls per another key.
	 * @param key what the limit counts calls per
	 * @return the changed copy
	 */
	public RateLimitPolicy withKey(RateLimitKey key) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, this.maxWait, key,
				this.maxCallsPerSession);
	}

	/**
	 * A copy with another session budget.
	 * @param maxCallsPerSession how many calls each session may make, or {@code null} for no budget
	 * @return the changed copy
	 */
	public RateLimitPolicy withMaxCallsPerSession(@Nullable Integer maxCallsPerSession) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, this.maxWait, this.key,
				maxCallsPerSession);
	}

	/**
	 * The rate limit in words, such as {@code 5 calls per 1m per session}.
	 * @return the text
	 */
	String limitText() {
		return calls(this.limitForPeriod) + " per " + DurationText.of(this.limitRefreshPeriod) + this.key.text();
	}

	/**
	 * The exhausted session budget in words, such as {@code budget of 20 calls per session used up}.
	 * @return the text
	 */
	String budgetText() {
		return "budget of " + calls(Objects.requireNonNull(this.maxCallsPerSession)) + " per session used up";
	}

	private static String calls(int count) {
		return count + ((count == 1) ? " call" : " calls");
	}

}
