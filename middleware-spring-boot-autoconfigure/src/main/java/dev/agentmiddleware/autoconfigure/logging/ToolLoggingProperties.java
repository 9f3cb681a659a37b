package dev.agentmiddleware.autoconfigure.logging;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.logging.LoggingPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;

/**
 * Configuration of the logging of tool calls: one line per call at INFO to the logger
 * {@code dev.agentmiddleware.logging.ToolCallLog}, results at DEBUG. Secret keys come
 * from {@code agent.middleware.redaction.secret-keys}. <pre>{@code
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
@ConfigurationProperties(ToolLoggingProperties.PREFIX)
class ToolLoggingProperties extends ToolMiddlewareProperties<ToolLoggingProperties.Settings, LoggingPolicy> {

	/** The prefix of the logging properties. */
	public static final String PREFIX = "agent.middleware.logging";

	/**
	 * Name of the logger the lines go to; set its level to switch the logging at runtime.
	 */
	private String loggerName = LoggingMiddleware.DEFAULT_LOGGER_NAME;

	public ToolLoggingProperties() {
		super(PREFIX, BuiltInOrder.LOGGING,
				new Settings(null, LoggingPolicy.DEFAULT.maxValueLength(), LoggingPolicy.DEFAULT.logResults()));
	}

	public String getLoggerName() {
		return this.loggerName;
	}

	public void setLoggerName(String loggerName) {
		this.loggerName = loggerName;
	}

	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		checks.notBlank("loggerName", this.loggerName);
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	@Override
	protected LoggingPolicy createPolicy(Settings settings) {
		return new LoggingPolicy(required(settings.getMaxValueLength(), "maxValueLength"),
				required(settings.getLogResults(), "logResults"));
	}

	/**
	 * How one tool's calls are logged.
	 *
	 * <p>
	 * {@code enabled}: Whether calls are logged: under 'defaults', of every tool not
	 * listed (not set: all); under 'tools', of that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Longest logged rendering of one argument value, result or error message, in
		 * characters.
		 */
		private @Nullable Integer maxValueLength;

		/**
		 * Whether the result is logged, on its own line at DEBUG, when the logger is
		 * enabled for DEBUG.
		 */
		private @Nullable Boolean logResults;

		public Settings() {
		}

		Settings(@Nullable Boolean enabled, @Nullable Integer maxValueLength, @Nullable Boolean logResults) {
			setEnabled(enabled);
			this.maxValueLength = maxValueLength;
			this.logResults = logResults;
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

	}

}
