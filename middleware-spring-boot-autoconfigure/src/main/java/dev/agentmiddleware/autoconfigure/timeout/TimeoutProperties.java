package dev.agentmiddleware.autoconfigure.timeout;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ToolSettings;
import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of per-tool timeouts.
 */
@ConfigurationProperties(TimeoutProperties.PREFIX)
public class TimeoutProperties {

	/** The prefix of the timeout properties. */
	public static final String PREFIX = "agent.middleware.timeout";

	/**
	 * Whether tools with a configured timeout are abandoned and interrupted when they take longer.
	 */
	private boolean enabled = true;

	/**
	 * Position of the timeout layer in every tool's chain; a lower order runs further out.
	 */
	private int order = BuiltInOrder.TIMEOUT;

	/**
	 * Largest number of timed tool attempts running at once.
	 */
	private int maxThreads = TimeoutMiddleware.DEFAULT_MAX_THREADS;

	/**
	 * Largest number of timed tool calls waiting for a thread; further calls are refused at once.
	 */
	private int queueCapacity = TimeoutMiddleware.DEFAULT_QUEUE_CAPACITY;

	private final Settings defaults = new Settings();

	/**
	 * Per-tool overrides of the defaults, by tool name.
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

	public Settings getDefaults() {
		return this.defaults;
	}

	public Map<String, Settings> getTools() {
		return this.tools;
	}

	/**
	 * The timeout of a tool, or of every tool in {@code defaults}.
	 */
	public static class Settings implements ToolSettings<Settings> {

		/**
		 * Longest one attempt of the tool may take; unset means no timeout, and zero exempts a tool from the
		 * default.
		 */
		private @Nullable Duration timeout;

		public @Nullable Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(@Nullable Duration timeout) {
			this.timeout = timeout;
		}

		@Override
		public Settings withDefaults(Settings defaults) {
			Settings merged = new Settings();
			merged.setTimeout((this.timeout != null) ? this.timeout : defaults.getTimeout());
			return merged;
		}

	}

}
