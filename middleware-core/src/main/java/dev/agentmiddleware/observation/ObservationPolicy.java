package dev.agentmiddleware.observation;

/**
 * How one tool's calls are observed; a tool without a policy is not observed. Being
 * observed, with the middleware's convention, is the whole policy today, so that
 * observation takes a policy function like every other built-in. <pre>{@code
 * ObservationMiddleware.builder()
 *     .registry(registry)
 *     .policies((tool) -> tool.name().equals("heartbeat") ? null : ObservationPolicy.OBSERVED)
 *     .build();
 * }</pre>
 */
public enum ObservationPolicy {

	/** Every call is observed with the middleware's convention. */
	OBSERVED

}
