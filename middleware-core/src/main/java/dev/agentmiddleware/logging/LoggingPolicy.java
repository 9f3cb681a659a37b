package dev.agentmiddleware.logging;

import dev.agentmiddleware.chain.InvalidPolicyException;

/**
 * How the calls of one tool are logged. <pre>{@code
 * LoggingPolicy policy = new LoggingPolicy(120, false);   // shorter values, never log results
 * }</pre>
 *
 * @param maxValueLength the longest rendering of one argument value, result or error
 * message, in characters; longer ones are cut and end with {@code …}
 * @param logResults whether the result is logged (on its own line, at DEBUG) when the
 * logger is enabled for DEBUG
 */
public record LoggingPolicy(int maxValueLength, boolean logResults) {

	/** The default: values up to 200 characters, results logged at DEBUG. */
	public static final LoggingPolicy DEFAULT = new LoggingPolicy(200, true);

	/**
	 * Validates the policy.
	 * @param maxValueLength the longest value, at least 8
	 * @param logResults whether results are logged at DEBUG
	 */
	public LoggingPolicy {
		if (maxValueLength < 8) {
			throw new InvalidPolicyException("maxValueLength",
					"maxValueLength must be at least 8, was " + maxValueLength);
		}
	}

}
