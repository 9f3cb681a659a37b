package dev.agentmiddleware.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a tool call. Implement it (or extend
 * {@link DefaultAgentToolObservationConvention}) to change the metric name or the keys; in Spring Boot, declare it
 * as a bean.
 * <pre>{@code
 * class TenantToolCallConvention extends DefaultAgentToolObservationConvention {
 *     public KeyValues getLowCardinalityKeyValues(AgentToolObservationContext context) {
 *         return super.getLowCardinalityKeyValues(context)
 *             .and("tenant", String.valueOf(context.getInvocation().principal()));
 *     }
 * }
 * }</pre>
 */
public interface AgentToolObservationConvention extends ObservationConvention<AgentToolObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof AgentToolObservationContext;
	}

}
