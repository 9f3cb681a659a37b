package dev.agentmiddleware.agent;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.thread.ThreadMetadata;
import dev.agentmiddleware.thread.ThreadStore;
import org.jspecify.annotations.Nullable;

/**
 * One iteration of an agent loop as its hooks see it: the thread, the iteration number, the thread's metadata
 * through the {@link ThreadStore}, the messages the model gets as input, and a way to add to the next iteration's
 * input.
 * <pre>{@code
 * public void afterIteration(IterationContext context, IterationResult result) {
 *     if (context.iteration() == 3) {
 *         context.appendToNextInput("Summarise your progress before calling more tools.");
 *     }
 * }
 * }</pre>
 */
public final class IterationContext {

	private final String threadId;

	private final int iteration;

	private final List<AgentMessage> messages;

	private final ThreadStore threadStore;

	private final Map<String, Object> runAttributes;

	private final List<String> nextInput;

	IterationContext(String threadId, int iteration, List<AgentMessage> messages, ThreadStore threadStore,
			Map<String, Object> runAttributes, List<String> nextInput) {
		this.threadId = threadId;
		this.iteration = iteration;
		this.messages = List.copyOf(messages);
		this.threadStore = threadStore;
		this.runAttributes = runAttributes;
		this.nextInput = nextInput;
	}

	/**
	 * The thread: the conversation id on the {@code ChatClient} path, the MCP session id on the MCP path.
	 * @return the thread id
	 */
	public String threadId() {
		return this.threadId;
	}

	/**
	 * The iteration number within the run, from 1.
	 * @return the iteration number
	 */
	public int iteration() {
		return this.iteration;
	}

	/**
	 * The messages the model gets as input in this iteration.
	 * @return the messages, oldest first
	 */
	public List<AgentMessage> messages() {
		return this.messages;
	}

	/**
	 * The thread's metadata as stored now.
	 * @return the metadata
	 */
	public ThreadMetadata metadata() {
		return this.threadStore.load(this.threadId);
	}

	/**
	 * Changes the thread's metadata atomically; see {@link ThreadStore#update}.
	 * @param change computes the new metadata from the current one; may run more than once
	 * @return the metadata as written
	 */
	public ThreadMetadata updateMetadata(UnaryOperator<Map<String, @Nullable Object>> change) {
		return this.threadStore.update(this.threadId, change);
	}

	/**
	 * State that lives as long as the run (all iterations of one loop), shared by every middleware: key it by
	 * middleware name. Thread-safe.
	 * @return the mutable run attributes
	 */
	public Map<String, Object> runAttributes() {
		return this.runAttributes;
	}

	/**
	 * Adds text to the input of the next iteration (the loop adds it after the tool answers).
	 * @param text the text for the model
	 */
	public void appendToNextInput(String text) {
		synchronized (this.nextInput) {
			this.nextInput.add(Objects.requireNonNull(text, "text"));
		}
	}

	@Override
	public String toString() {
		return "IterationContext[thread=" + this.threadId + ", iteration=" + this.iteration + "]";
	}

}
