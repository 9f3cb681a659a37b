package dev.agentmiddleware.autoconfigure.learning;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import dev.agentmiddleware.learning.ErrorPatternStore;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of learning from tool calls.
 */
@ConfigurationProperties(LearningProperties.PREFIX)
class LearningProperties implements ValidatedProperties {

	/** The prefix of the learning properties. */
	public static final String PREFIX = "agent.middleware.learning";

	/**
	 * Whether learning observers, the error-pattern store and tool call events are
	 * enabled.
	 */
	private boolean enabled = true;

	/**
	 * Maximum number of distinct error patterns kept; beyond it the least recently seen
	 * is dropped.
	 */
	private int maxPatterns = ErrorPatternStore.DEFAULT_MAX_PATTERNS;

	/**
	 * Whether a ToolCallEvent is published for every tool call, for @EventListener beans.
	 */
	private boolean publishEvents = true;

	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("maxPatterns", this.maxPatterns, 1);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxPatterns() {
		return this.maxPatterns;
	}

	public void setMaxPatterns(int maxPatterns) {
		this.maxPatterns = maxPatterns;
	}

	public boolean isPublishEvents() {
		return this.publishEvents;
	}

	public void setPublishEvents(boolean publishEvents) {
		this.publishEvents = publishEvents;
	}

}
