package dev.agentmiddleware.autoconfigure.observation;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ToolSettings;
import dev.agentmiddleware.chain.BuiltInOrder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the observation of tool calls (a Micrometer timer, long-task timer and tracing span per call).
 * <pre>{@code
 * agent:
 *   middleware:
 *     observation:
 *       tools:
 *         heartbeat:
 *           enabled: false
 * }</pre>
 */
@ConfigurationProperties(ObservationProperties.PREFIX)
public class ObservationProperties {

	/** The prefix of the observation properties. */
	public static final String PREFIX = "agent.middleware.observation";

	/**
	 * Whether tool calls are observed and the decisions of the built-in middleware counted.
	 */
	private boolean enabled = true;

	/**
	 * Position of the observation in each tool's chain; a lower order runs further out.
	 */
	private int order = BuiltInOrder.OBSERVATION;

	/**
	 * Settings of every tool that has no override of its own.
	 */
	private final Settings defaults = new Settings(true);

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

	public Settings getDefaults() {
		return this.defaults;
	}

	public Map<String, Settings> getTools() {
		return this.tools;
	}

	/**
	 * Whether one tool's calls are observed.
	 */
	public static class Settings implements ToolSettings<Settings> {

		/**
		 * Whether the tool's calls are observed.
		 */
		private @Nullable Boolean enabled;

		public Settings() {
		}

		Settings(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		@Override
		public Settings withDefaults(Settings defaults) {
			return new Settings((this.enabled != null) ? this.enabled : defaults.enabled);
		}

	}

}
