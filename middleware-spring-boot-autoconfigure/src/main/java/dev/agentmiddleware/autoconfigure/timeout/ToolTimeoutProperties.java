package dev.agentmiddleware.autoconfigure.timeout;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import java.time.Duration;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of per-tool timeouts.
 */
@ConfigurationProperties(ToolTimeoutProperties.PREFIX)
class ToolTimeoutProperties extends ToolMiddlewareProperties<ToolTimeoutProperties.Settings, TimeoutPolicy> {

	private static final Logger logger = LoggerFactory.getLogger(ToolTimeoutProperties.class);

	/** The prefix of the timeout properties. */
	public static final String PREFIX = "agent.middleware.timeout";

	/**
	 * Largest number of timed tool attempts running at once.
	 */
	private int maxThreads = TimeoutMiddleware.DEFAULT_MAX_THREADS;

	/**
	 * Largest number of timed tool calls waiting for a thread; further calls are refused
	 * at once.
	 */
	private int queueCapacity = TimeoutMiddleware.DEFAULT_QUEUE_CAPACITY;

	public ToolTimeoutProperties() {
		super(PREFIX, BuiltInOrder.TIMEOUT, new Settings());
	}

	public int getMaxThreads() {
		return this.maxThreads;
	}

	public void setMaxThreads(int maxThreads) {
		this.maxThreads = maxThreads;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		checks.atLeast("maxThreads", this.maxThreads, 1).atLeast("queueCapacity", this.queueCapacity, 0);
		warnIfZero(PREFIX + ".defaults", getDefaults());
		getTools().forEach((name, settings) -> warnIfZero(PREFIX + ".tools." + name, settings));
	}

	// 'timeout: 0' was the off-switch before 'enabled: false' was the one spelling; it
	// still works, with a WARN.
	private static void warnIfZero(String property, Settings settings) {
		if (settings.getTimeout() != null && settings.getTimeout().isZero()) {
			logger.warn("{}.timeout=0 is deprecated as a way to leave a tool without a timeout: set {}.enabled=false "
					+ "instead.", property, property);
		}
	}

	// Every tool with a timeout gets one.
	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	@Override
	protected @Nullable TimeoutPolicy createPolicy(Settings settings) {
		Duration timeout = settings.getTimeout();
		if (timeout != null && timeout.isNegative()) {
			throw new InvalidPolicyException("timeout", "timeout must not be negative, was " + timeout
					+ "; leave it unset for no timeout, or use 0 to exempt a tool from the default");
		}
		return (timeout != null && !timeout.isZero()) ? TimeoutPolicy.of(timeout) : null;
	}

	/**
	 * The timeout of a tool, or of every tool in {@code defaults}.
	 *
	 * <p>
	 * {@code enabled}: Whether the timeout applies: under 'defaults', to every tool not
	 * listed (not set: all); under 'tools', to that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Longest one attempt of the tool may take; unset means no timeout (zero,
		 * deprecated, is the old spelling of 'enabled: false').
		 */
		private @Nullable Duration timeout;

		public @Nullable Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(@Nullable Duration timeout) {
			this.timeout = timeout;
		}

	}

}
