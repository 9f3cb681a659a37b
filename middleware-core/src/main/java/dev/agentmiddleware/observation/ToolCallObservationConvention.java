package dev.agentmiddleware.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a tool call. Implement it (or extend
 * {@link DefaultToolCallObservationConvention}) to change the metric name or the keys; in Spring Boot, declare it
 * as a bean.
 * <pre>{@code
 * class TenantToolCallConvention extends DefaultToolCallObservationConvention {
 *     public KeyValues getLowCardinalityKeyValues(ToolCallObservationContext context) {
 *         return super.getLowCardinalityKeyValues(context)
 *             .and("tenant", String.valueOf(context.getInvocation().principal()));
 *     }
 * }
 * }</pre>
 */
public interface ToolCallObservationConvention extends ObservationConvention<ToolCallObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ToolCallObservationContext;
	}

}
