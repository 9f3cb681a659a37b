package dev.agentmiddleware.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;

/**
 * A synchronous observer that keeps every call record, so that a test can check a call's record as soon as the call
 * returns; the tests of every package declare it as a bean.
 * <pre>{@code
 * @Bean
 * RecordingToolCallObserver recordingObserver() {
 *     return new RecordingToolCallObserver();
 * }
 * }</pre>
 */
public final class RecordingToolCallObserver implements ToolCallObserver {

	/** The records of the calls observed, in the order they ended. */
	public final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

	@Override
	public void onToolCall(ToolCallRecord record) {
		this.records.add(record);
	}

	@Override
	public boolean synchronous() {
		return true;
	}

}
