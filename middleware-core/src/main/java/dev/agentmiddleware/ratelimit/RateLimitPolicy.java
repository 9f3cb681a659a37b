package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.internal.DurationText;
import org.jspecify.annotations.Nullable;

/**
 * The rate limit of one tool: at most {@code limitForPeriod} calls per
 * {@code limitRefreshPeriod}, counted per {@link RateLimitKey key}, and optionally a
 * budget of calls per session that is never refilled while the session lives, and
 * optionally a cap on how many calls of one session run at the same time. <pre>{@code
 * RateLimitPolicy policy = RateLimitPolicy.of(5, Duration.ofMinutes(1))
 *     .withKey(RateLimitKey.TOOL_AND_SESSION)
 *     .withMaxWait(Duration.ofMillis(500))
 *     .withMaxCallsPerSession(20)
 *     .withMaxConcurrentCalls(3);
 * }</pre>
 *
 * @param limitForPeriod how many calls each period allows, at least 1
 * @param limitRefreshPeriod how often the permits refill, positive
 * @param maxWait how long a call may wait for a permit before it is rejected;
 * {@link Duration#ZERO} rejects at once
 * @param key what the limit counts calls per
 * @param maxCallsPerSession how many calls of the tool each session may make in all, or
 * {@code null} for no budget; calls without a session id have no budget
 * @param maxConcurrentCalls how many calls of the tool each session may have running at
 * once, or {@code null} for no cap; calls without a session id share one cap for the tool
 */
public record RateLimitPolicy(int limitForPeriod, Duration limitRefreshPeriod, Duration maxWait, RateLimitKey key,
		@Nullable Integer maxCallsPerSession, @Nullable Integer maxConcurrentCalls) {

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if a value is out of range, with a message that
	 * names it
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
		if (maxConcurrentCalls != null && maxConcurrentCalls < 1) {
			throw new InvalidPolicyException("maxConcurrentCalls",
					"maxConcurrentCalls must be at least 1 (or null for no cap), was " + maxConcurrentCalls);
		}
	}

	/**
	 * A policy without a cap on concurrent calls.
	 * @param limitForPeriod how many calls each period allows, at least 1
	 * @param limitRefreshPeriod how often the permits refill, positive
	 * @param maxWait how long a call may wait for a permit before it is rejected
	 * @param key what the limit counts calls per
	 * @param maxCallsPerSession how many calls of the tool each session may make in all,
	 * or {@code null}
	 */
	public RateLimitPolicy(int limitForPeriod, Duration limitRefreshPeriod, Duration maxWait, RateLimitKey key,
			@Nullable Integer maxCallsPerSession) {
		this(limitForPeriod, limitRefreshPeriod, maxWait, key, maxCallsPerSession, null);
	}

	/**
	 * A policy of {@code limitForPeriod} calls per {@code limitRefreshPeriod} for all
	 * calls of the tool, failing fast, with no session budget.
	 * @param limitForPeriod how many calls each period allows
	 * @param limitRefreshPeriod how often the permits refill
	 * @return the policy
	 */
	public static RateLimitPolicy of(int limitForPeriod, Duration limitRefreshPeriod) {
		return new RateLimitPolicy(limitForPeriod, limitRefreshPeriod, Duration.ZERO, RateLimitKey.TOOL, null, null);
	}

	/**
	 * A copy with another maximum wait for a permit.
	 * @param maxWait how long a call may wait; {@link Duration#ZERO} rejects at once
	 * @return the changed copy
	 */
	public RateLimitPolicy withMaxWait(Duration maxWait) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, maxWait, this.key,
				this.maxCallsPerSession, this.maxConcurrentCalls);
	}

	/**
	 * A copy that counts calls per another key.
	 * @param key what the limit counts calls per
	 * @return the changed copy
	 */
	public RateLimitPolicy withKey(RateLimitKey key) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, this.maxWait, key,
				this.maxCallsPerSession, this.maxConcurrentCalls);
	}

	/**
	 * A copy with another session budget.
	 * @param maxCallsPerSession how many calls each session may make, or {@code null} for
	 * no budget
	 * @return the changed copy
	 */
	public RateLimitPolicy withMaxCallsPerSession(@Nullable Integer maxCallsPerSession) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, this.maxWait, this.key,
				maxCallsPerSession, this.maxConcurrentCalls);
	}

	/**
	 * A copy with another cap on concurrent calls: a call of a session that already has
	 * that many calls of the tool running is rejected as rate limited at once.
	 * <pre>{@code
	 * RateLimitPolicy policy = RateLimitPolicy.of(60, Duration.ofMinutes(1)).withMaxConcurrentCalls(2);
	 * }</pre>
	 * @param maxConcurrentCalls how many calls each session may have running at once, or
	 * {@code null} for no cap
	 * @return the changed copy
	 */
	public RateLimitPolicy withMaxConcurrentCalls(@Nullable Integer maxConcurrentCalls) {
		return new RateLimitPolicy(this.limitForPeriod, this.limitRefreshPeriod, this.maxWait, this.key,
				this.maxCallsPerSession, maxConcurrentCalls);
	}

	/**
	 * The rate limit in words, such as {@code 5 calls per 1m per session}.
	 * @return the text
	 */
	String limitText() {
		return calls(this.limitForPeriod) + " per " + DurationText.of(this.limitRefreshPeriod) + this.key.text();
	}

	/**
	 * The exhausted session budget in words, such as
	 * {@code budget of 20 calls per session used up}.
	 * @return the text
	 */
	String budgetText() {
		return "budget of " + calls(Objects.requireNonNull(this.maxCallsPerSession)) + " per session used up";
	}

	/**
	 * The reached cap on concurrent calls in words, such as
	 * {@code 3 calls of this session already running}; calls without a session share one
	 * cap.
	 * @param withSession whether the rejected call belongs to a session
	 * @return the text
	 */
	String concurrencyText(boolean withSession) {
		return calls(Objects.requireNonNull(this.maxConcurrentCalls))
				+ (withSession ? " of this session" : " without a session") + " already running";
	}

	private static String calls(int count) {
		return count + ((count == 1) ? " call" : " calls");
	}

	/**
	 * What a rate limit counts calls per. Every key is also per tool: two tools never
	 * share a limit. <pre>{@code
	 * RateLimitPolicy perSession = RateLimitPolicy.of(5, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION);
	 * }</pre>
	 */
	public enum RateLimitKey {

		/** One limit for all calls of the tool. */
		TOOL(""),

		/**
		 * One limit per session of the tool; calls without a session id share one limit.
		 */
		TOOL_AND_SESSION(" per session"),

		/**
		 * One limit per principal of the tool; calls without a principal share one limit.
		 */
		TOOL_AND_PRINCIPAL(" per principal");

		private final String text;

		RateLimitKey(String text) {
			this.text = text;
		}

		/**
		 * How the key reads at the end of a limit, such as {@code " per session"}.
		 * @return the text, empty for {@link #TOOL}
		 */
		String text() {
			return this.text;
		}

	}

}
