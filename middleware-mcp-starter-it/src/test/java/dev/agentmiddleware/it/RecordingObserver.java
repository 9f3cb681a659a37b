package dev.agentmiddleware.it;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;

/**
 * A synchronous observer that keeps every call record, so a test sees the record of a call as soon as it returns.
 */
final class RecordingObserver implements ToolCallObserver {

	private final Queue<ToolCallRecord> records = new ConcurrentLinkedQueue<>();

	@Override
	public void onToolCall(ToolCallRecord record) {
		this.records.add(record);
	}

	@Override
	public boolean synchronous() {
		return true;
	}

	List<ToolCallRecord> of(String tool) {
		return this.records.stream().filter((record) -> record.invocation().toolName().equals(tool)).toList();
	}

}
