package dev.agentmiddleware.results;

import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;

/**
 * How the results of one tool are guarded: the longest result in characters (of its text, or of its JSON text for
 * a structured result), what happens to a longer one, and whether secrets are redacted.
 * <pre>{@code
 * ResultPolicy policy = new ResultPolicy(100_000, OnExceed.TRUNCATE, true);
 * ResultPolicy unlimited = new ResultPolicy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true);
 * }</pre>
 *
 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no limit
 * @param onExceed what happens to a longer result
 * @param redactSecrets whether secrets in the result are replaced by {@code [REDACTED]}
 */
public record ResultPolicy(int maxChars, OnExceed onExceed, boolean redactSecrets) {

	/** The {@link #maxChars()} of a tool whose results are not limited. */
	public static final int UNLIMITED = 0;

	/** The default limit: 100,000 characters, about 25,000 tokens. */
	public static final int DEFAULT_MAX_CHARS = 100_000;

	/**
	 * Checks the policy.
	 * @throws InvalidPolicyException when {@code maxChars} is negative
	 */
	public ResultPolicy {
		Objects.requireNonNull(onExceed, "onExceed");
		if (maxChars < 0) {
			throw new InvalidPolicyException("maxChars",
					"maxChars must be at least 0 (0 means no limit), was " + maxChars);
		}
	}

	/**
	 * Whether results are limited.
	 * @return {@code true} unless {@link #maxChars()} is {@link #UNLIMITED}
	 */
	public boolean limited() {
		return this.maxChars != UNLIMITED;
	}

	/**
	 * What happens to a result longer than its tool's {@link ResultPolicy#maxChars() limit}.
	 */
	public enum OnExceed {

		/** The result is cut to the limit, with a marker saying how much was left out. */
		TRUNCATE,

		/** The call fails with a {@link ToolResultRefusedException}; the model sees the refusal, not the result. */
		REFUSE

	}

}
