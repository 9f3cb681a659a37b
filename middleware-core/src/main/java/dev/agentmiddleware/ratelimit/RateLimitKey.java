package dev.agentmiddleware.ratelimit;

/**
 * What a rate limit counts calls per. Every key is also per tool: two tools never share a limit.
 * <pre>{@code
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
