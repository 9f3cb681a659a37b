package dev.agentmiddleware.spring.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallRecord;

/**
 * Tells the agent loop how each tool call of an iteration ended (with the exception when it failed), which the
 * text a model reads does not say. A synchronous observer: while {@link #recording} runs the tool calls of an
 * iteration on the current thread, the records of the calls made on that thread are collected; outside it, it
 * does nothing.
 */
final class IterationEventRecorder implements ToolCallObserver {

	private static final ThreadLocal<List<ToolCallRecord>> RECORDS = new ThreadLocal<>();

	@Override
	public void onToolCall(ToolCallRecord record) {
		List<ToolCallRecord> records = RECORDS.get();
		if (records != null) {
			records.add(record);
		}
	}

	@Override
	public boolean synchronous() {
		return true;
	}

	/**
	 * Runs tool calls and collects the records of the calls they made on this thread.
	 * @param calls runs the tool calls
	 * @param <T> the result type
	 * @return the result and the records, in call order
	 */
	static <T> Recorded<T> recording(Supplier<T> calls) {
		List<ToolCallRecord> previous = RECORDS.get();
		List<ToolCallRecord> records = new ArrayList<>();
		RECORDS.set(records);
		try {
			return new Recorded<>(calls.get(), records);
		}
		finally {
			if (previous != null) {
				RECORDS.set(previous);
			}
			else {
				RECORDS.remove();
			}
		}
	}

	record Recorded<T>(T result, List<ToolCallRecord> records) {
	}

}
