package dev.agentmiddleware.autoconfigure.observation;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.observation.ObservationPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the observation of tool calls (a Micrometer timer and tracing span per
 * call that reaches the tool, a cached timer for the others, and a long-task timer on
 * request). <pre>{@code
 * agent:
 *   middleware:
 *     observation:
 *       tools:
 *         heartbeat:
 *           enabled: false
 * }</pre>
 */
@ConfigurationProperties(ToolObservationProperties.PREFIX)
class ToolObservationProperties
		extends ToolMiddlewareProperties<ToolObservationProperties.Settings, ObservationPolicy> {

	/** The prefix of the observation properties. */
	public static final String PREFIX = "agent.middleware.observation";

	/**
	 * Whether tool calls also get the meter handler's long-task timer
	 * ('agent.tool.call.active'), which costs about as much as the rest of a call's
	 * observation; off, they get a timer only.
	 */
	private boolean longTaskTimer = false;

	public ToolObservationProperties() {
		super(PREFIX, BuiltInOrder.OBSERVATION, new Settings());
	}

	public boolean isLongTaskTimer() {
		return this.longTaskTimer;
	}

	public void setLongTaskTimer(boolean longTaskTimer) {
		this.longTaskTimer = longTaskTimer;
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	// Being observed is the whole policy.
	@Override
	protected ObservationPolicy createPolicy(Settings settings) {
		return ObservationPolicy.OBSERVED;
	}

	/**
	 * Whether one tool's calls are observed.
	 *
	 * <p>
	 * {@code enabled}: Whether calls are observed: under 'defaults', of every tool not
	 * listed (not set: all); under 'tools', of that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

	}

}
