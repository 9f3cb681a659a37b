package dev.agentmiddleware.autoconfigure.learning;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;

import org.springframework.context.ApplicationEventPublisher;

/**
 * The observer that publishes a {@link ToolCallEvent} per call, asynchronously, through
 * the observer tier.
 */
final class ToolCallEventPublisher implements ToolCallObserver {

	private final ApplicationEventPublisher publisher;

	/**
	 * Creates the publisher.
	 * @param publisher where events go, usually the application context
	 */
	public ToolCallEventPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void onToolCall(ToolCallRecord record) {
		this.publisher.publishEvent(new ToolCallEvent(record));
	}

}
