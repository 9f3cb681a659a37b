package dev.agentmiddleware.internal;

import java.time.Duration;

/**
 * Short human text for durations in messages: {@code 250ms}, {@code 12s}, {@code 2m},
 * {@code 1m30s}.
 */
public final class DurationText {

	private DurationText() {
	}

	/**
	 * Formats a duration for a message.
	 * @param duration the duration
	 * @return the short text
	 */
	public static String of(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return "0s";
		}
		if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
			return Math.max(1, duration.toMillis()) + "ms";
		}
		long seconds = (duration.toMillis() + 999) / 1000;
		if (seconds < 60) {
			return seconds + "s";
		}
		if (seconds < 3600) {
			return (seconds / 60) + "m" + ((seconds % 60 != 0) ? (seconds % 60) + "s" : "");
		}
		return (seconds / 3600) + "h" + ((seconds % 3600 / 60 != 0) ? (seconds % 3600 / 60) + "m" : "");
	}

}
