package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.tool.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * One tool call of a model's reply, as {@link GoverningToolCallingManager} hands it to
 * the callback that runs it, under {@value #KEY} in that call's own {@code ToolContext}:
 * the model's tool-call id, which the callback puts on the invocation, and the failure
 * the callback reports back, so that the loop learns how the call with this id ended.
 * Created per tool call; written by the one callback that runs it and read after it
 * returned.
 */
final class ToolCallReport {

	/** The tool-context key carrying the report of the call being run. */
	static final String KEY = "agent.tool-call";

	private final String id;

	private volatile @Nullable Exception failure;

	ToolCallReport(String id) {
		this.id = id;
	}

	/**
	 * The model's id of this tool call.
	 * @return the id
	 */
	String id() {
		return this.id;
	}

	/**
	 * Reports that the call failed; the model was answered with the failure's text.
	 * @param failure what the call threw
	 */
	void failed(Exception failure) {
		this.failure = failure;
	}

	/**
	 * The failure the loop counts as a tool error (the call failed, was refused or timed
	 * out), if any.
	 * @return the failure, or {@code null} when the call returned or ended in an outcome
	 * that is not an error (such as invalid arguments, which the model is told to fix)
	 */
	@Nullable Exception error() {
		Exception failure = this.failure;
		return (failure != null && isError(CallOutcome.ofFailure(failure))) ? failure : null;
	}

	private static boolean isError(CallOutcome outcome) {
		return outcome == CallOutcome.FAILED || outcome == CallOutcome.DENIED || outcome == CallOutcome.FORBIDDEN
				|| outcome == CallOutcome.RATE_LIMITED || outcome == CallOutcome.TIMED_OUT
				|| outcome == CallOutcome.UNKNOWN_TOOL;
	}

}
