package dev.agentmiddleware.retry;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.tool.TransientToolException;

/**
 * How one tool is retried: up to {@code maxAttempts} attempts in all, waiting
 * {@code initialBackoff}, then {@code multiplier} times longer after each failed attempt,
 * never longer than {@code maxBackoff}, each wait varied at random by up to
 * {@code jitter} of itself. Only failures of the {@code retryOn} types (or their
 * subclasses) are retried, except those of the {@code ignore} types: by default an
 * {@link IOException} is retried, but not a missing file or another
 * {@link FileSystemException}, which a second attempt would only repeat. <pre>{@code
 * RetryPolicy policy = RetryPolicy.defaults().withMaxAttempts(5).withRetryOn(List.of(SocketTimeoutException.class));
 * }</pre>
 *
 * @param maxAttempts the attempts in all, at least 1 (1 means no retry)
 * @param initialBackoff the wait after the first failed attempt, at least 1ms
 * @param multiplier how much longer each further wait is, at least 1.0
 * @param jitter the randomization factor of each wait, from 0 (none) up to but excluding
 * 1: a wait {@code w} becomes one between {@code w * (1 - jitter)} and
 * {@code w * (1 + jitter)}
 * @param maxBackoff the longest wait, at least {@code initialBackoff}
 * @param retryOn the failures that are retried, with their subclasses
 * @param ignore the failures that are not retried even though a {@code retryOn} type
 * matches them, with their subclasses
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, double multiplier, double jitter,
		Duration maxBackoff, List<Class<? extends Throwable>> retryOn, List<Class<? extends Throwable>> ignore) {

	/**
	 * The failures retried by default: {@link TransientToolException} and
	 * {@link IOException}.
	 */
	public static final List<Class<? extends Throwable>> DEFAULT_RETRY_ON = List.of(TransientToolException.class,
			IOException.class);

	/**
	 * The failures not retried by default although they are {@link IOException}s:
	 * {@link FileNotFoundException} and {@link FileSystemException} (a missing file, a
	 * denied access, a path that is a directory).
	 */
	public static final List<Class<? extends Throwable>> DEFAULT_IGNORE = List.of(FileNotFoundException.class,
			FileSystemException.class);

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if a value is out of range, with a message that
	 * names it
	 */
	public RetryPolicy {
		if (maxAttempts < 1) {
			throw new InvalidPolicyException("maxAttempts", "maxAttempts must be at least 1, was " + maxAttempts);
		}
		Objects.requireNonNull(initialBackoff, "initialBackoff");
		if (initialBackoff.toMillis() < 1) {
			throw new InvalidPolicyException("initialBackoff",
					"initialBackoff must be at least 1ms, was " + initialBackoff);
		}
		if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
			throw new InvalidPolicyException("multiplier", "multiplier must be at least 1.0, was " + multiplier);
		}
		if (!(jitter >= 0.0 && jitter < 1.0)) {
			throw new InvalidPolicyException("jitter", "jitter must be at least 0 and less than 1, was " + jitter);
		}
		Objects.requireNonNull(maxBackoff, "maxBackoff");
		if (maxBackoff.compareTo(initialBackoff) < 0) {
			throw new InvalidPolicyException("maxBackoff",
					"maxBackoff must be at least initialBackoff (" + initialBackoff + "), was " + maxBackoff);
		}
		retryOn = List.copyOf(retryOn);
		ignore = List.copyOf(ignore);
		checkThrowables("retryOn", retryOn);
		checkThrowables("ignore", ignore);
	}

	// The element type is erased at run time: a class bound from configuration may be any
	// class.
	private static void checkThrowables(String name, List<Class<? extends Throwable>> types) {
		for (Class<?> type : types) {
			if (!Throwable.class.isAssignableFrom(type)) {
				throw new InvalidPolicyException(name,
						name + " must list exception types, but lists " + type.getName());
			}
		}
	}

	/**
	 * The default policy: 3 attempts, 200ms initial backoff, multiplier 2, jitter 0.5, at
	 * most 5s between attempts, retrying {@link #DEFAULT_RETRY_ON} except
	 * {@link #DEFAULT_IGNORE}.
	 * @return the default policy
	 */
	public static RetryPolicy defaults() {
		return new RetryPolicy(3, Duration.ofMillis(200), 2.0, 0.5, Duration.ofSeconds(5), DEFAULT_RETRY_ON,
				DEFAULT_IGNORE);
	}

	/**
	 * A copy with another number of attempts.
	 * @param maxAttempts the attempts in all
	 * @return the changed copy
	 */
	public RetryPolicy withMaxAttempts(int maxAttempts) {
		return new RetryPolicy(maxAttempts, this.initialBackoff, this.multiplier, this.jitter, this.maxBackoff,
				this.retryOn, this.ignore);
	}

	/**
	 * A copy with another backoff schedule.
	 * @param initialBackoff the wait after the first failed attempt
	 * @param multiplier how much longer each further wait is
	 * @param maxBackoff the longest wait
	 * @return the changed copy
	 */
	public RetryPolicy withBackoff(Duration initialBackoff, double multiplier, Duration maxBackoff) {
		return new RetryPolicy(this.maxAttempts, initialBackoff, multiplier, this.jitter, maxBackoff, this.retryOn,
				this.ignore);
	}

	/**
	 * A copy with another randomization factor.
	 * @param jitter the factor, 0 for a fixed schedule
	 * @return the changed copy
	 */
	public RetryPolicy withJitter(double jitter) {
		return new RetryPolicy(this.maxAttempts, this.initialBackoff, this.multiplier, jitter, this.maxBackoff,
				this.retryOn, this.ignore);
	}

	/**
	 * A copy that retries other failures.
	 * @param retryOn the failures that are retried, with their subclasses
	 * @return the changed copy
	 */
	public RetryPolicy withRetryOn(List<Class<? extends Throwable>> retryOn) {
		return new RetryPolicy(this.maxAttempts, this.initialBackoff, this.multiplier, this.jitter, this.maxBackoff,
				retryOn, this.ignore);
	}

	/**
	 * A copy that leaves other failures alone.
	 * @param ignore the failures that are not retried, with their subclasses
	 * @return the changed copy
	 */
	public RetryPolicy withIgnore(List<Class<? extends Throwable>> ignore) {
		return new RetryPolicy(this.maxAttempts, this.initialBackoff, this.multiplier, this.jitter, this.maxBackoff,
				this.retryOn, ignore);
	}

}
