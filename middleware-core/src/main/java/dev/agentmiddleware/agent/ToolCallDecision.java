package dev.agentmiddleware.agent;

import org.jspecify.annotations.Nullable;

/**
 * What to do with one tool call the model asked for: run it, or answer it with a text instead.
 *
 * @param call the call
 * @param answer the text the model gets instead of running the tool, or {@code null} to run it
 * @param endsRun whether the loop must stop after this turn (the iteration limit is reached)
 */
public record ToolCallDecision(ToolCallRequest call, @Nullable String answer, boolean endsRun) {

	/**
	 * Whether the tool runs.
	 * @return {@code true} if the call is not answered by a guard
	 */
	public boolean runs() {
		return this.answer == null;
	}

}
