package dev.agentmiddleware.autoconfigure.agent;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the error-recovery middleware, under
 * {@code agent.middleware.error-recovery}.
 */
@ConfigurationProperties(ErrorRecoveryProperties.PREFIX)
class ErrorRecoveryProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.error-recovery";

	/**
	 * Whether to tell the model about the error an iteration ended with, and to try
	 * another approach.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
