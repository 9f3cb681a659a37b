package dev.agentmiddleware.ratelimit;

import java.time.Duration;

import dev.agentmiddleware.internal.DurationText;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * A rate limit or call budget rejected the call; the tool did not run. Never retried by
 * the chain. <pre>{@code
 * throw new ToolRateLimitedException("get_weather", "rate-limit", "5 calls per 1m per session",
 *         Duration.ofSeconds(12));
 * }</pre>
 */
public class ToolRateLimitedException extends ToolMiddlewareException {

	private final String limit;

	private final Duration retryAfter;

	/**
	 * Creates the exception.
	 * @param toolName the tool whose limit was reached
	 * @param decidedBy the middleware that rejected the call
	 * @param limit the limit in words, such as {@code 5 calls per 1m per session}
	 * @param retryAfter roughly how long until a call may succeed; {@link Duration#ZERO}
	 * if unknown or if waiting will not help (the message then gives no retry hint)
	 */
	public ToolRateLimitedException(String toolName, String decidedBy, String limit, Duration retryAfter) {
		super(toolName, decidedBy, "Tool '" + toolName + "' is rate limited (" + limit + ")" + retryHint(retryAfter),
				null, false);
		this.limit = limit;
		this.retryAfter = retryAfter;
	}

	private static String retryHint(Duration retryAfter) {
		return (retryAfter.isNegative() || retryAfter.isZero()) ? ""
				: "; retry in about " + DurationText.of(retryAfter);
	}

	/**
	 * The limit that was reached, in words.
	 * @return the limit
	 */
	public String limit() {
		return this.limit;
	}

	/**
	 * Roughly how long until a call may succeed.
	 * @return the wait
	 */
	public Duration retryAfter() {
		return this.retryAfter;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.RATE_LIMITED;
	}

}
