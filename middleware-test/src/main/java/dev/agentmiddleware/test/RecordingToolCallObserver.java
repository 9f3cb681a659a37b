package dev.agentmiddleware.test;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.tool.CallOutcome;

/**
 * A {@link ToolCallObserver} that keeps the record of every call it sees, so that a test
 * can check what happened to its calls: the tool, the arguments, the {@link CallOutcome},
 * the result or the failure, and which middleware decided it.
 *
 * <p>
 * The observer is {@link #synchronous() synchronous}: the record of a call is here as
 * soon as the call returns or throws, so tests read it without waiting. It sees the calls
 * a middleware refused (denied, rate limited, answered from the cache, refused for their
 * arguments) as well as the calls the tool ran. Safe to use from many threads; records
 * are kept in the order the calls ended.
 *
 * <p>
 * In a Spring test, declare it as a bean: every {@code ToolCallObserver} bean receives
 * the records of every tool. <pre>{@code
 * &#64;Bean
 * RecordingToolCallObserver recordingObserver() {
 *     return new RecordingToolCallObserver();
 * }
 *
 * assertThat(observer.outcomes("search")).containsExactly(CallOutcome.SUCCEEDED, CallOutcome.RATE_LIMITED);
 * assertThat(observer.lastRecord("search").decidedBy()).isEqualTo("rate-limit");
 * }</pre> {@link ToolHarness} attaches one to its pipeline
 * ({@link ToolHarness#observer()}).
 */
public final class RecordingToolCallObserver implements ToolCallObserver {

	private final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

	@Override
	public void onToolCall(ToolCallRecord record) {
		this.records.add(record);
	}

	/**
	 * Always {@code true}: records arrive before the call returns.
	 * @return {@code true}
	 */
	@Override
	public boolean synchronous() {
		return true;
	}

	/**
	 * The records of every call observed so far, in the order the calls ended.
	 * @return an unmodifiable snapshot of the records
	 */
	public List<ToolCallRecord> records() {
		return List.copyOf(this.records);
	}

	/**
	 * The records of the calls of one tool, in the order the calls ended.
	 * @param tool the tool name
	 * @return an unmodifiable snapshot of the records, empty when the tool was not called
	 */
	public List<ToolCallRecord> records(String tool) {
		Objects.requireNonNull(tool, "tool");
		return this.records.stream().filter((record) -> record.invocation().toolName().equals(tool)).toList();
	}

	/**
	 * The records of the calls of one tool with exactly these arguments (as the chain
	 * received them), in the order the calls ended.
	 * @param tool the tool name
	 * @param arguments the arguments by name
	 * @return an unmodifiable snapshot of the records
	 */
	public List<ToolCallRecord> records(String tool, Map<String, ?> arguments) {
		Objects.requireNonNull(arguments, "arguments");
		return records(tool).stream().filter((record) -> record.invocation().arguments().equals(arguments)).toList();
	}

	/**
	 * The outcomes of every call observed so far, in the order the calls ended.
	 * @return the outcomes
	 */
	public List<CallOutcome> outcomes() {
		return this.records.stream().map(ToolCallRecord::outcome).toList();
	}

	/**
	 * The outcomes of the calls of one tool, in the order the calls ended.
	 * @param tool the tool name
	 * @return the outcomes, empty when the tool was not called
	 */
	public List<CallOutcome> outcomes(String tool) {
		return records(tool).stream().map(ToolCallRecord::outcome).toList();
	}

	/**
	 * The record of the last call that ended.
	 * @return the record
	 * @throws IllegalStateException if no call was observed
	 */
	public ToolCallRecord lastRecord() {
		List<ToolCallRecord> records = records();
		if (records.isEmpty()) {
			throw new IllegalStateException("No call was observed");
		}
		return records.get(records.size() - 1);
	}

	/**
	 * The record of the last call of one tool that ended.
	 * @param tool the tool name
	 * @return the record
	 * @throws IllegalStateException if no call of the tool was observed
	 */
	public ToolCallRecord lastRecord(String tool) {
		List<ToolCallRecord> records = records(tool);
		if (records.isEmpty()) {
			throw new IllegalStateException("No call of '" + tool + "' was observed; observed: " + toolNames());
		}
		return records.get(records.size() - 1);
	}

	/**
	 * Forgets every record, for a test that checks the calls of one step at a time.
	 */
	public void clear() {
		this.records.clear();
	}

	private List<String> toolNames() {
		return this.records.stream().map((record) -> record.invocation().toolName()).distinct().toList();
	}

	@Override
	public String toString() {
		return "RecordingToolCallObserver" + this.records.stream()
			.map((record) -> record.invocation().toolName() + "=" + record.outcome())
			.toList();
	}

}
