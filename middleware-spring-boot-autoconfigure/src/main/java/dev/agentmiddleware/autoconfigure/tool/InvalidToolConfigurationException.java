package dev.agentmiddleware.autoconfigure.tool;

import org.jspecify.annotations.Nullable;

/**
 * Configuration of the agent tool middleware that cannot work as written: a tool name
 * that matches no tool, a setting with an invalid value, or a built-in listed for a tool
 * it refuses. Startup fails with it, and Spring Boot's failure analysis reports the
 * property, its value and origin (file and line), the reason and the fix. <pre>{@code
 * throw new InvalidToolConfigurationException("agent.middleware.cache.tools.lookup-ordr",
 *         "no tool is named 'lookup-ordr'", "Did you mean 'lookup-order'? Registered tools: lookup_order, refund");
 * }</pre>
 */
public class InvalidToolConfigurationException extends IllegalStateException {

	private final String property;

	private final String reason;

	private final String action;

	private final @Nullable Object value;

	/**
	 * Creates the exception for a property whose value the failure analysis reads from
	 * the environment.
	 * @param property the property, such as
	 * {@code agent.middleware.retry.tools.refund-order}
	 * @param reason what is wrong, without the property name
	 * @param action how to fix it
	 */
	public InvalidToolConfigurationException(String property, String reason, String action) {
		this(property, null, reason, action);
	}

	/**
	 * Creates the exception.
	 * @param property the property, such as
	 * {@code agent.middleware.retry.defaults.max-attempts}
	 * @param value the value as bound, or {@code null} to read it from the environment
	 * @param reason what is wrong, without the property name
	 * @param action how to fix it
	 */
	public InvalidToolConfigurationException(String property, @Nullable Object value, String reason, String action) {
		super("Invalid configuration property '" + property + "': " + reason + ". " + action);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	/**
	 * The property at fault.
	 * @return the property name
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * The value as bound, when known.
	 * @return the value, or {@code null}
	 */
	public @Nullable Object getValue() {
		return this.value;
	}

	/**
	 * What is wrong.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	/**
	 * How to fix it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
