package dev.agentmiddleware.ratelimit;

/**
 * A {@link RateLimiterStore} could not count a permit, such as when its database is unreachable. The
 * {@link RateLimitMiddleware} turns it into a rejection with the limit text {@value #LIMIT_TEXT} (fail closed), or
 * runs the call when built to fail open.
 * <pre>{@code
 * throw new RateLimiterUnavailableException("PostgreSQL rate-limit store unreachable", ex);
 * }</pre>
 */
public class RateLimiterUnavailableException extends RuntimeException {

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
