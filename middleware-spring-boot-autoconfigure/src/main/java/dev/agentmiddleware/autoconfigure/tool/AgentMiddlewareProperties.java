package dev.agentmiddleware.autoconfigure.tool;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.redaction.SecretRedactor;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the agent tool middleware.
 */
@ConfigurationProperties(AgentMiddlewareProperties.PREFIX)
public class AgentMiddlewareProperties implements ValidatedProperties {

	/** The prefix of every property of the agent tool middleware. */
	public static final String PREFIX = "agent.middleware";

	/**
	 * Whether the agent tool middleware is enabled; when disabled, beans with @AgentTool
	 * methods are left untouched.
	 */
	private boolean enabled = true;

	/**
	 * Whether a tool name in configuration that matches no registered tool fails startup;
	 * otherwise it is logged as a warning.
	 */
	private boolean failOnUnknownTool = true;

	private final Arguments arguments = new Arguments();

	private final Observers observers = new Observers();

	private final Errors errors = new Errors();

	private final Redaction redaction = new Redaction();

	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("arguments.maxPayloadChars", this.arguments.getMaxPayloadChars(), 1)
			.atLeast("arguments.maxDepth", this.arguments.getMaxDepth(), 1)
			.atLeast("observers.queueCapacity", this.observers.getQueueCapacity(), 1)
			.atLeast("errors.maxLength", this.errors.getMaxLength(), 1)
			.noBlankElement("redaction.secretKeys", this.redaction.getSecretKeys());
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isFailOnUnknownTool() {
		return this.failOnUnknownTool;
	}

	public void setFailOnUnknownTool(boolean failOnUnknownTool) {
		this.failOnUnknownTool = failOnUnknownTool;
	}

	public Arguments getArguments() {
		return this.arguments;
	}

	public Observers getObservers() {
		return this.observers;
	}

	public Errors getErrors() {
		return this.errors;
	}

	public Redaction getRedaction() {
		return this.redaction;
	}

	/**
	 * Limits on the JSON arguments a model or MCP client sends.
	 */
	public static class Arguments {

		/**
		 * Largest accepted JSON arguments payload, in characters.
		 */
		private int maxPayloadChars = 65_536;

		/**
		 * Deepest accepted nesting of objects and arrays in JSON arguments.
		 */
		private int maxDepth = 32;

		public int getMaxPayloadChars() {
			return this.maxPayloadChars;
		}

		public void setMaxPayloadChars(int maxPayloadChars) {
			this.maxPayloadChars = maxPayloadChars;
		}

		public int getMaxDepth() {
			return this.maxDepth;
		}

		public void setMaxDepth(int maxDepth) {
			this.maxDepth = maxDepth;
		}

	}

	/**
	 * Delivery of call records to observers.
	 */
	public static class Observers {

		/**
		 * How many call records may wait for asynchronous observers before new ones are
		 * dropped.
		 */
		private int queueCapacity = 1024;

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

	}

	/**
	 * The text a model or MCP client gets when a tool call fails.
	 */
	public static class Errors {

		/**
		 * Longest error text returned to the model, in characters.
		 */
		private int maxLength = 500;

		public int getMaxLength() {
			return this.maxLength;
		}

		public void setMaxLength(int maxLength) {
			this.maxLength = maxLength;
		}

	}

	/**
	 * How secrets are recognised in arguments and messages.
	 */
	public static class Redaction {

		/**
		 * Words that mark a key as secret when the key's words spell one, ignoring case
		 * and separators.
		 */
		private List<String> secretKeys = new ArrayList<>(SecretRedactor.DEFAULT_SECRET_KEYS);

		public List<String> getSecretKeys() {
			return this.secretKeys;
		}

		public void setSecretKeys(List<String> secretKeys) {
			this.secretKeys = secretKeys;
		}

	}

}
