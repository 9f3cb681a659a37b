package dev.agentmiddleware.observation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;

/**
 * The meter handler of tool call observations only: a timer per observed call, without the long-task timer that
 * {@link DefaultMeterObservationHandler} adds (which costs about as much as the rest of the observation). Placed
 * before the default meter handler among the registry's first-matching meter handlers, it takes the tool calls
 * and leaves every other observation to the default.
 * <pre>{@code
 * registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
 *         new ToolCallMeterObservationHandler(meterRegistry), new DefaultMeterObservationHandler(meterRegistry)));
 * }</pre>
 */
public class ToolCallMeterObservationHandler extends DefaultMeterObservationHandler {

	/**
	 * Creates the handler.
	 * @param meterRegistry where the timers are registered
	 */
	public ToolCallMeterObservationHandler(MeterRegistry meterRegistry) {
		super(meterRegistry, IgnoredMeters.LONG_TASK_TIMER);
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof AgentToolObservationContext;
	}

}
