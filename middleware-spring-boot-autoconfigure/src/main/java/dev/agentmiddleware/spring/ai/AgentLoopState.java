package dev.agentmiddleware.spring.ai;

import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.agent.IterationResult;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientResponse;

/**
 * One run of the tool loop of {@link AgentToolCallingAdvisor}: the agent run and what its current iteration
 * produced so far. Iterations are sequential, though possibly on different threads.
 */
final class AgentLoopState {

	final String runId;

	final AgentRun run;

	volatile @Nullable ChatClientResponse lastResponse;

	volatile @Nullable IterationResult toolResult;

	volatile int toolResultIteration;

	AgentLoopState(String runId, AgentRun run) {
		this.runId = runId;
		this.run = run;
	}

}
