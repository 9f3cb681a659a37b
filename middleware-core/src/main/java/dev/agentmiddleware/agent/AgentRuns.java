package dev.agentmiddleware.agent;

import java.util.Objects;

import dev.agentmiddleware.thread.ThreadStore;

/**
 * Starts {@link AgentRun}s of one configuration: the composed middleware, the thread store and the loop guard.
 * Immutable and thread-safe; an integration holds one and starts a run per user turn.
 * <pre>{@code
 * AgentRuns runs = new AgentRuns(AgentMiddleware.compose(List.of(todos, recovery)), threadStore, guard);
 * AgentRun run = runs.start(conversationId);
 * }</pre>
 *
 * @param middleware the composed middleware
 * @param threadStore the thread metadata
 * @param guard the loop guard
 */
public record AgentRuns(ComposedAgentMiddleware middleware, ThreadStore threadStore, LoopGuard guard) {

	/**
	 * Validates the components.
	 */
	public AgentRuns {
		Objects.requireNonNull(middleware, "middleware");
		Objects.requireNonNull(threadStore, "threadStore");
		Objects.requireNonNull(guard, "guard");
	}

	/**
	 * Starts a run.
	 * @param threadId the thread the run belongs to
	 * @return the run
	 */
	public AgentRun start(String threadId) {
		return AgentRun.start(threadId, this.middleware, this.threadStore, this.guard);
	}

}
