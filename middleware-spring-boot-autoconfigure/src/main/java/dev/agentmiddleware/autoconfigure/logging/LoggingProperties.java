package dev.agentmiddleware.autoconfigure.logging;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ToolSettings;
import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.logging.LoggingPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the logging of tool calls: one line per call at INFO to the logger
 * {@code dev.agentmiddleware.logging.ToolCallLog}, results at DEBUG. Secret keys come from
 * {@code agent.middleware.redaction.secret-keys}.
 * <pre>{@code
 * agent:
 *   middleware:
 *     logging:
 *       defaults:
 *         max-value-length: 120
 *       tools:
 *         heartbeat:
 *           enabled: false
 * }</pre>
 */
@ConfigurationProperties(LoggingProperties.PREFIX)
public class LoggingProperties {

	/** The prefix of the logging properties. */
	public static final String PREFIX = "agent.middleware.logging";

	/**
	 * Whether tool calls are logged.
	 */
	private boolean enabled = true;

	/**
	 * Position of the logging in each tool's chain; a lower order runs further out.
	 */
	private int order = BuiltInOrder.LOGGING;

	/**
	 * Name of the logger the lines go to; set its level to switch the logging at runtime.
	 */
	private String loggerName = LoggingMiddleware.DEFAULT_LOGGER_NAME;

	/**
	 * Settings of every tool that has no override of its own.
	 */
	private final Settings defaults = new Settings(true, LoggingPolicy.DEFAULT.maxValueLength(),
			LoggingPolicy.DEFAULT.logResults());

	/**
	 * Per-tool overrides by tool name; fields not set fall back to the defaults.
	 */
	private final Map<String, Settings> tools = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public String getLoggerName() {
		return this.loggerName;
	}

	public void setLoggerName(String loggerName) {
		this.loggerName = loggerName;
	}

	public Settings getDefaults() {
		return this.defaults;
	}

	public Map<String, Settings> getTools() {
		return this.tools;
	}

	/**
	 * How one tool's calls are logged.
	 */
	public static class Settings implements ToolSettings<Settings> {

		/**
		 * Whether the tool's calls are logged.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Longest logged rendering of one argument value, result or error message, in characters.
		 */
		private @Nullable Integer maxValueLength;

		/**
		 * Whether the result is logged, on its own line at DEBUG, when the logger is enabled for DEBUG.
		 */
		private @Nullable Boolean logResults;

		public Settings() {
		}

		Settings(@Nullable Boolean enabled, @Nullable Integer maxValueLength, @Nullable Boolean logResults) {
			this.enabled = enabled;
			this.maxValueLength = maxValueLength;
			this.logResults = logResults;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Integer getMaxValueLength() {
			return this.maxValueLength;
		}

		public void setMaxValueLength(@Nullable Integer maxValueLength) {
			this.maxValueLength = maxValueLength;
		}

		public @Nullable Boolean getLogResults() {
			return this.logResults;
		}

		public void setLogResults(@Nullable Boolean logResults) {
			this.logResults = logResults;
		}

		@Override
		public Settings withDefaults(Settings defaults) {
			return new Settings((this.enabled != null) ? this.enabled : defaults.enabled,
					(this.maxValueLength != null) ? this.maxValueLength : defaults.maxValueLength,
					(this.logResults != null) ? this.logResults : defaults.logResults);
		}

	}

}
