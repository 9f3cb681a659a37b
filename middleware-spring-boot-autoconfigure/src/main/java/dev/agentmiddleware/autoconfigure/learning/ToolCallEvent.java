package dev.agentmiddleware.autoconfigure.learning;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.tool.CallOutcome;

import org.springframework.context.ApplicationEvent;

/**
 * Published once per tool call, after the call, so that an application can learn from its
 * tools with an {@code @EventListener}.
 *
 * <p>
 * Events come from the observer tier: by default they are published on the observer
 * thread after the call has returned, and a listener that throws or is slow never fails
 * or delays a call. The record carries the real argument values; a listener that stores
 * or shows them is responsible for not leaking secrets. <pre>{@code
 * &#64;EventListener
 * void onToolCall(ToolCallEvent event) {
 *     if (event.outcome() == CallOutcome.FAILED) {
 *         failures.increment(event.toolName());
 *     }
 * }
 * }</pre>
 */
public class ToolCallEvent extends ApplicationEvent {

	private final ToolCallRecord record;

	/**
	 * Creates the event.
	 * @param record what happened in the call; also the event's source
	 */
	public ToolCallEvent(ToolCallRecord record) {
		super(record);
		this.record = record;
	}

	/**
	 * What happened in the call.
	 * @return the record
	 */
	public ToolCallRecord getRecord() {
		return this.record;
	}

	/**
	 * The tool that was called.
	 * @return the tool name
	 */
	public String toolName() {
		return this.record.invocation().toolName();
	}

	/**
	 * How the call ended.
	 * @return the outcome
	 */
	public CallOutcome outcome() {
		return this.record.outcome();
	}

}
