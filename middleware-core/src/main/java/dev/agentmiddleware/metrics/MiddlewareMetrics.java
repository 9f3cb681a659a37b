package dev.agentmiddleware.metrics;

/**
 * Counts {@link MiddlewareEvent}s per tool. The built-ins take one; {@link #NONE} counts
 * nothing. Implementations must be thread-safe and cheap: they are called on the hot path
 * of tool calls. <pre>{@code
 * metrics.count(MiddlewareEvent.CACHE_HIT, invocation.toolName());
 * }</pre>
 */
@FunctionalInterface
public interface MiddlewareMetrics {

	/** Counts nothing. */
	MiddlewareMetrics NONE = (event, toolName) -> {
	};

	/**
	 * Counts one event.
	 * @param event what happened
	 * @param toolName the tool it happened to
	 */
	void count(MiddlewareEvent event, String toolName);

	/**
	 * Counts one event of a kind, such as the kind of personal data masked; by default
	 * counted as the event alone.
	 * @param event what happened
	 * @param toolName the tool it happened to
	 * @param kind what kind of thing it happened to, such as {@code email}
	 */
	default void count(MiddlewareEvent event, String toolName, String kind) {
		count(event, toolName);
	}

	/**
	 * Something a built-in middleware decided, counted per tool. Each event has the name
	 * of the counter it becomes in a metrics registry, tagged with the tool's name.
	 */
	public enum MiddlewareEvent {

		/** A cached result was returned. */
		CACHE_HIT("agent.tool.cache.hits"),

		/** The cache had no entry; the tool ran. */
		CACHE_MISS("agent.tool.cache.misses"),

		/** An entry left the cache because of its size limit or its time to live. */
		CACHE_EVICTION("agent.tool.cache.evictions"),

		/** A call was rejected by a rate limit or a call budget. */
		RATE_LIMIT_REJECTED("agent.tool.ratelimit.rejections"),

		/** A failed attempt was retried. */
		RETRY("agent.tool.retries"),

		/** A session crash was recovered by resetting the session and retrying. */
		CRASH_RECOVERED("agent.tool.crash.recoveries"),

		/**
		 * An approval was asked for. (Approval outcomes are counted once, by outcome, on
		 * {@code agent.tool.approvals{outcome}}: see the auto-configuration's approval
		 * outcome counter.)
		 */
		APPROVAL_REQUESTED("agent.tool.approvals.requested"),

		/**
		 * A call record was dropped because the asynchronous observers could not keep up.
		 */
		OBSERVER_RECORD_DROPPED("agent.tool.observer.drops"),

		/** Secrets in a tool's result were redacted before the caller saw it. */
		RESULT_REDACTED("agent.tool.results.redacted"),

		/** A tool's result was longer than its limit and was cut. */
		RESULT_TRUNCATED("agent.tool.results.truncated"),

		/** A tool's result was refused by its size limit or a result guard. */
		RESULT_REFUSED("agent.tool.results.refused"),

		/**
		 * A value of personal data in a tool's result was masked; counted per kind (tag
		 * {@code kind}).
		 */
		PERSONAL_DATA_MASKED("agent.tool.results.personal.data");

		private final String meterName;

		MiddlewareEvent(String meterName) {
			this.meterName = meterName;
		}

		/**
		 * The name of the counter this event increments.
		 * @return the meter name, such as {@code agent.tool.cache.hits}
		 */
		public String meterName() {
			return this.meterName;
		}

	}

}
