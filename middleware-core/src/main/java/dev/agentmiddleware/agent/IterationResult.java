package dev.agentmiddleware.agent;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What one iteration produced: the model's reply and the events of the tool calls it asked for, in order.
 * <pre>{@code
 * AgentEvent last = result.lastEvent();
 * if (last != null && last.isError()) { ... }
 * }</pre>
 *
 * @param reply the model's reply, or {@code null} when the model call failed
 * @param events what happened after the reply, in order
 */
public record IterationResult(@Nullable AgentMessage reply, List<AgentEvent> events) {

	/**
	 * Freezes the events.
	 */
	public IterationResult {
		events = List.copyOf(Objects.requireNonNull(events, "events"));
	}

	/**
	 * The last event.
	 * @return the last event, or {@code null} when there was none
	 */
	public @Nullable AgentEvent lastEvent() {
		return this.events.isEmpty() ? null : this.events.get(this.events.size() - 1);
	}

	/**
	 * Whether the reply asked for tool calls, so the loop goes on.
	 * @return {@code true} if the reply carries tool calls
	 */
	public boolean hasToolCalls() {
		return this.reply != null && !this.reply.toolCalls().isEmpty();
	}

}
