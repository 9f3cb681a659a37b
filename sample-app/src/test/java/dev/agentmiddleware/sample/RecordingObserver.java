package dev.agentmiddleware.sample;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.tool.CallOutcome;

/**
 * A synchronous observer that keeps every call record, so a test can check the outcome of
 * the calls it made as soon as they return.
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

	/**
	 * The outcomes of the calls of one tool with exactly these arguments, in call order.
	 * @param tool the tool name
	 * @param arguments the call's arguments
	 * @return the outcomes
	 */
	List<CallOutcome> outcomes(String tool, Map<String, Object> arguments) {
		return this.records.stream()
			.filter((record) -> record.invocation().toolName().equals(tool))
			.filter((record) -> record.invocation().arguments().equals(arguments))
			.map(ToolCallRecord::outcome)
			.toList();
	}

	/**
	 * The principal names the calls of one tool carried
	 * ({@code ToolInvocation.principalName()}), in call order.
	 * @param tool the tool name
	 * @return the names, {@code "<anonymous>"} for a call without a principal
	 */
	List<String> principalNames(String tool) {
		return this.records.stream()
			.filter((record) -> record.invocation().toolName().equals(tool))
			.map((record) -> java.util.Objects.requireNonNullElse(record.invocation().principalName(), "<anonymous>"))
			.toList();
	}

}
