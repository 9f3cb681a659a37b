package dev.agentmiddleware.timeout;

import java.time.Duration;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.internal.DurationText;

/**
 * How long one attempt of a tool may take before it is abandoned and interrupted. A tool
 * without a policy has no timeout. <pre>{@code
 * TimeoutPolicy policy = TimeoutPolicy.of(Duration.ofSeconds(30));
 * }</pre>
 *
 * @param timeout the longest an attempt may take; positive
 */
public record TimeoutPolicy(Duration timeout) {

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if the timeout is zero or negative
	 */
	public TimeoutPolicy {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new InvalidPolicyException("timeout", "Timeout must be positive, was " + timeout
					+ "; give a tool no policy to leave it without a timeout");
		}
	}

	/**
	 * Creates a policy.
	 * @param timeout the longest an attempt may take; positive
	 * @return the policy
	 */
	public static TimeoutPolicy of(Duration timeout) {
		return new TimeoutPolicy(timeout);
	}

	@Override
	public String toString() {
		return "TimeoutPolicy[" + DurationText.of(this.timeout) + "]";
	}

}
