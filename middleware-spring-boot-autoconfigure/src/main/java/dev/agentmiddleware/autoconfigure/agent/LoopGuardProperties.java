package dev.agentmiddleware.autoconfigure.agent;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the loop guards, under {@code agent.middleware.loop-guard}; a limit of
 * 0 means none.
 */
@ConfigurationProperties(LoopGuardProperties.PREFIX)
class LoopGuardProperties implements ValidatedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.loop-guard";

	/** Whether to enforce the limits below. */
	private boolean enabled = true;

	/** The most model calls (iterations) in one run of the agent loop. */
	private int maxIterations = 25;

	/** The most tool calls in one run of the agent loop. */
	private int maxToolCallsPerRun = 100;

	/**
	 * The most tool calls in one thread (a conversation or an MCP session), across runs
	 * and instances; 0 for no limit.
	 */
	private int maxToolCallsPerThread = 0;

	/**
	 * How many calls of one tool with the same arguments in one run stop that call
	 * instead of running it.
	 */
	private int maxRepeatedCalls = 3;

	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("maxIterations", this.maxIterations, 0)
			.atLeast("maxToolCallsPerRun", this.maxToolCallsPerRun, 0)
			.atLeast("maxToolCallsPerThread", this.maxToolCallsPerThread, 0)
			.atLeast("maxRepeatedCalls", this.maxRepeatedCalls, 0);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxIterations() {
		return this.maxIterations;
	}

	public void setMaxIterations(int maxIterations) {
		this.maxIterations = maxIterations;
	}

	public int getMaxToolCallsPerRun() {
		return this.maxToolCallsPerRun;
	}

	public void setMaxToolCallsPerRun(int maxToolCallsPerRun) {
		this.maxToolCallsPerRun = maxToolCallsPerRun;
	}

	public int getMaxToolCallsPerThread() {
		return this.maxToolCallsPerThread;
	}

	public void setMaxToolCallsPerThread(int maxToolCallsPerThread) {
		this.maxToolCallsPerThread = maxToolCallsPerThread;
	}

	public int getMaxRepeatedCalls() {
		return this.maxRepeatedCalls;
	}

	public void setMaxRepeatedCalls(int maxRepeatedCalls) {
		this.maxRepeatedCalls = maxRepeatedCalls;
	}

}
