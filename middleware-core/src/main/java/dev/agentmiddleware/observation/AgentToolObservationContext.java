package dev.agentmiddleware.observation;

import java.util.Objects;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link AgentToolObservationConvention} sees of a tool call: the invocation, and once it ended its outcome
 * (the exception, if any, is {@link #getError()}).
 */
public class AgentToolObservationContext extends Observation.Context {

	private final ToolInvocation invocation;

	private volatile @Nullable CallOutcome outcome;

	/**
	 * Creates the context of one call.
	 * @param invocation the call
	 */
	public AgentToolObservationContext(ToolInvocation invocation) {
		this.invocation = Objects.requireNonNull(invocation, "invocation");
	}

	/**
	 * The call being observed.
	 * @return the invocation, as the observation middleware received it
	 */
	public ToolInvocation getInvocation() {
		return this.invocation;
	}

	/**
	 * How the call ended.
	 * @return the outcome, or {@code null} while the call runs
	 */
	public @Nullable CallOutcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Sets how the call ended; done by the middleware before the observation stops.
	 * @param outcome the outcome
	 */
	public void setOutcome(CallOutcome outcome) {
		this.outcome = Objects.requireNonNull(outcome, "outcome");
	}

}
