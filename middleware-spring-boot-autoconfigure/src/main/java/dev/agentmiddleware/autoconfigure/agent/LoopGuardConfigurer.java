package dev.agentmiddleware.autoconfigure.agent;

import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;

/**
 * The mapping of {@code agent.middleware.loop-guard} to the loop guard's policy, so that
 * {@link AgentAutoConfiguration} only wires beans. The loop guard is per run, not per
 * tool, so it has no {@code tools.<name>} block; {@code enabled: false} is its one
 * off-switch (no limits at all), and a limit of 0 is a value meaning "no limit", not a
 * switch.
 */
final class LoopGuardConfigurer {

	private LoopGuardConfigurer() {
	}

	static LoopGuardPolicy policy(LoopGuardProperties properties) {
		if (!properties.isEnabled()) {
			return LoopGuardPolicy.UNLIMITED;
		}
		return new LoopGuardPolicy(properties.getMaxIterations(), properties.getMaxToolCallsPerRun(),
				properties.getMaxToolCallsPerThread(), properties.getMaxRepeatedCalls());
	}

}
