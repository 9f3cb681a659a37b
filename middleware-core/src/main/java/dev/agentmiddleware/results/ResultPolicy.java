package dev.agentmiddleware.results;

import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;

/**
 * How the results of one tool are guarded: the longest result in characters (of its text,
 * or of its JSON text for a structured result, or of the texts of a
 * {@link dev.agentmiddleware.tool.ToolContents rich result}), the most bytes of binary
 * data of a rich result (its images, audio and embedded binary resources), what happens
 * to a longer one, whether secrets are redacted, and which kinds of personal data are
 * masked. <pre>{@code
 * ResultPolicy policy = new ResultPolicy(100_000, OnExceed.TRUNCATE, true);
 * ResultPolicy unlimited = new ResultPolicy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true);
 * ResultPolicy customers = new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of("email", "phone"));
 * ResultPolicy charts = new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of(), 10 * 1024 * 1024);
 * }</pre>
 *
 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no limit
 * @param onExceed what happens to a longer result
 * @param redactSecrets whether secrets in the result are replaced by {@code [REDACTED]}
 * @param personalData the kinds of personal data masked in the result, each the
 * {@link PersonalDataDetector#kind() kind} of a detector of the middleware, such as
 * {@code email}; empty to mask none
 * @param maxBinaryBytes the most bytes of binary data in a rich result, all its binary
 * parts together; {@link #UNLIMITED} (0) for no limit. A binary part cannot be cut: one
 * over the limit is left out, replaced by a text saying what it was, or refused
 */
public record ResultPolicy(int maxChars, OnExceed onExceed, boolean redactSecrets, List<String> personalData,
		long maxBinaryBytes) {

	/** The {@link #maxChars()} of a tool whose results are not limited. */
	public static final int UNLIMITED = 0;

	/** The default limit: 100,000 characters, about 25,000 tokens. */
	public static final int DEFAULT_MAX_CHARS = 100_000;

	/** The default limit of binary data in a rich result: 5 MB (5,242,880 bytes). */
	public static final long DEFAULT_MAX_BINARY_BYTES = 5L * 1024 * 1024;

	/**
	 * Checks the policy.
	 * @throws InvalidPolicyException when {@code maxChars} or {@code maxBinaryBytes} is
	 * negative
	 */
	public ResultPolicy {
		Objects.requireNonNull(onExceed, "onExceed");
		if (maxChars < 0) {
			throw new InvalidPolicyException("maxChars",
					"maxChars must be at least 0 (0 means no limit), was " + maxChars);
		}
		if (maxBinaryBytes < 0) {
			throw new InvalidPolicyException("maxBinaryBytes",
					"maxBinaryBytes must be at least 0 (0 means no limit), was " + maxBinaryBytes);
		}
		personalData = List.copyOf(personalData);
	}

	/**
	 * A policy with the default limit of binary data, {@link #DEFAULT_MAX_BINARY_BYTES}.
	 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no
	 * limit
	 * @param onExceed what happens to a longer result
	 * @param redactSecrets whether secrets in the result are replaced by
	 * {@code [REDACTED]}
	 * @param personalData the kinds of personal data masked in the result; empty to mask
	 * none
	 */
	public ResultPolicy(int maxChars, OnExceed onExceed, boolean redactSecrets, List<String> personalData) {
		this(maxChars, onExceed, redactSecrets, personalData, DEFAULT_MAX_BINARY_BYTES);
	}

	/**
	 * A policy that masks no personal data, with the default limit of binary data.
	 * @param maxChars the longest result in characters; {@link #UNLIMITED} (0) for no
	 * limit
	 * @param onExceed what happens to a longer result
	 * @param redactSecrets whether secrets in the result are replaced by
	 * {@code [REDACTED]}
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
	 * Whether the binary data of rich results is limited.
	 * @return {@code true} unless {@link #maxBinaryBytes()} is {@link #UNLIMITED}
	 */
	public boolean binaryLimited() {
		return this.maxBinaryBytes != UNLIMITED;
	}

	/**
	 * What happens to a result longer than its tool's {@link ResultPolicy#maxChars()
	 * limit}.
	 */
	public enum OnExceed {

		/** The result is cut to the limit, with a marker saying how much was left out. */
		TRUNCATE,

		/**
		 * The call fails with a {@link ToolResultRefusedException}; the model sees the
		 * refusal, not the result.
		 */
		REFUSE

	}

}
