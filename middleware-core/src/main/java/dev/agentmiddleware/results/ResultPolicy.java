package dev.agentmiddleware.results;

import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;

/**
 * How the results of one tool are guarded: the longest result in characters (of its text, or of its JSON text for
 * a structured result), what happens to a longer one, whether secrets are redacted, and which kinds of personal data
 * are masked.
 * <pre>{@code
 * ResultPolicy policy = new ResultPolicy(100_000, OnExceed.TRUNCATE, true);
 * ResultPolicy unlimited = new ResultPolicy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true);
 * ResultPolicy customers = new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of("email", "phone"));
 * }</pre>
 *
 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no limit
 * @param onExceed what happens to a longer result
 * @param redactSecrets whether secrets in the result are replaced by {@code [REDACTED]}
 * @param personalData the kinds of personal data masked in the result, each the {@link PersonalDataDetector#kind()
 * kind} of a detector of the middleware, such as {@code email}; empty to mask none
 */
public record ResultPolicy(int maxChars, OnExceed onExceed, boolean redactSecrets, List<String> personalData) {

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
		personalData = List.copyOf(personalData);
	}

	/**
	 * A policy that masks no personal data.
	 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no limit
	 * @param onExceed what happens to a longer result
	 * @param redactSecrets whether secrets in the result are replaced by {@code [REDACTED]}
	 */
	public ResultPolicy(int maxChars, OnExceed onExceed, boolean redactSecrets) {
		this(maxChars, onExceed, redactSecrets, List.of());
	}

	/**
	 * Whether personal data is masked.
	 * @return {@code true} when {@link #personalData()} names a kind
	 */
	public boolean masksPersonalData() {
		return !this.personalData.isEmpty();
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
