package dev.agentmiddleware.agent;

import dev.agentmiddleware.chain.InvalidPolicyException;

/**
 * The limits of a {@link LoopGuard}; {@code 0} means no limit.
 * <pre>{@code
 * LoopGuardPolicy policy = new LoopGuardPolicy(10, 30, 500, 3);
 * }</pre>
 *
 * @param maxIterations the most model calls in one run; when the last allowed iteration still asks for tools,
 * each of its tool calls is answered with the limit and the run ends
 * @param maxToolCallsPerRun the most tool calls in one run
 * @param maxToolCallsPerThread the most tool calls in one thread (a conversation or an MCP session), across runs,
 * paths and instances (counted in the thread store)
 * @param maxRepeatedCalls the most times one tool may be called with the same arguments in one run; the call that
 * reaches this number is answered instead of run
 */
public record LoopGuardPolicy(int maxIterations, int maxToolCallsPerRun, int maxToolCallsPerThread,
		int maxRepeatedCalls) {

	/** No limits at all. */
	public static final LoopGuardPolicy UNLIMITED = new LoopGuardPolicy(0, 0, 0, 0);

	/**
	 * Validates the limits.
	 */
	public LoopGuardPolicy {
		String negative = (maxIterations < 0) ? "maxIterations" : (maxToolCallsPerRun < 0) ? "maxToolCallsPerRun"
				: (maxToolCallsPerThread < 0) ? "maxToolCallsPerThread" : (maxRepeatedCalls < 0) ? "maxRepeatedCalls" : null;
		if (negative != null) {
			throw new InvalidPolicyException(negative, "Loop guard limits must not be negative (0 means no limit)");
		}
	}

}
