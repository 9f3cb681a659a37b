package dev.agentmiddleware.chain;

import java.util.Objects;

/**
 * A built-in's policy was given a value out of range. It names the setting by its
 * component name, so that whoever built the policy from configuration can point at the
 * property without reading the message. <pre>{@code
 * try {
 *     new RetryPolicy(0, ...);
 * }
 * catch (InvalidPolicyException ex) {
 *     ex.setting(); // "maxAttempts"
 *     ex.getMessage(); // "maxAttempts must be at least 1, was 0"
 * }
 * }</pre> It is an {@link IllegalArgumentException}, so code that catches that keeps
 * working.
 */
public final class InvalidPolicyException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String setting;

	/**
	 * Creates the exception.
	 * @param setting the policy component that is invalid, such as {@code maxAttempts}
	 * @param message what was wrong, naming the setting and the value
	 */
	public InvalidPolicyException(String setting, String message) {
		super(message);
		this.setting = Objects.requireNonNull(setting, "setting");
	}

	/**
	 * The invalid setting.
	 * @return the policy component's name, in camel case, such as {@code maxAttempts}
	 */
	public String setting() {
		return this.setting;
	}

}
