package dev.agentmiddleware.tool;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.jspecify.annotations.Nullable;

/**
 * Reports how far one running tool call has come, to a caller that asked to be told: an MCP client that sent a
 * {@code progressToken} with its {@code tools/call} gets each report as a {@code notifications/progress}. A caller
 * that asked for nothing (a direct Java call, a Spring AI {@code ChatClient}, an MCP client without a token) gets
 * {@link #NONE}, which does nothing, so a tool reports the same way whoever calls it.
 *
 * <p>An {@code @AgentTool} method declares a parameter of this type to get the progress of its call, as a Spring AI
 * {@code @Tool} method declares a {@code ToolContext}: it is not one of the tool's arguments (not in its input
 * schema, not bound from JSON, not part of a cache key or an approval's arguments):
 * <pre>{@code
 * @AgentTool(description = "Imports the rows of a CSV file", safety = SafetyLevel.MODERATE)
 * public int importRows(String path, ToolProgress progress) {
 *     List<Row> rows = csv.read(path);
 *     for (int i = 0; i < rows.size(); i++) {
 *         repository.save(rows.get(i));
 *         progress.report(i + 1, rows.size(), "imported " + (i + 1) + " of " + rows.size() + " rows");
 *     }
 *     return rows.size();
 * }
 * }</pre>
 * A Java caller of such a method passes {@code null} (no reports) or its own {@code ToolProgress}, which then gets
 * the reports of the call.
 *
 * <p><b>Contract.</b> Report as often as is convenient: what reaches the caller is bounded, at most one report per
 * interval ({@code agent.middleware.mcp.progress-interval} on the MCP path, {@link ProgressTarget#DEFAULT_INTERVAL}
 * otherwise); a report that comes sooner is dropped, not delayed. {@code progress} must increase from one report to
 * the next, as the MCP specification requires; a report that does not is dropped. {@code total} is {@code null}
 * when unknown. A report is sent on the calling thread; it never throws because sending failed and never fails the
 * call. Thread-safe. A call that first waited for approval, and told its caller so, continues that progress: the
 * tool's values are counted on from where the wait's left off, with the same bound on the rate. Each run of the tool
 * gets a reporter of its own, so the bound and the increase hold within one run: the attempts of a retried call
 * report afresh.
 */
@FunctionalInterface
public interface ToolProgress {

	/** Progress nobody is told of: every report is dropped. */
	ToolProgress NONE = new ToolProgress() {

		@Override
		public void report(double progress, @Nullable Double total, @Nullable String message) {
		}

		@Override
		public boolean isReported() {
			return false;
		}

		@Override
		public String toString() {
			return "ToolProgress.NONE";
		}

	};

	/**
	 * Reports progress.
	 * @param progress how far the call has come, greater than in the report before; finite
	 * @param total the value {@code progress} reaches when the call is done, or {@code null} when unknown
	 * @param message what the call is doing, for a person, or {@code null}
	 */
	void report(double progress, @Nullable Double total, @Nullable String message);

	/**
	 * Reports progress towards a known total: {@code progress.report(3, 10, "3 of 10 files copied")}.
	 * @param progress how far the call has come, greater than in the report before; finite
	 * @param total the value {@code progress} reaches when the call is done
	 * @param message what the call is doing, for a person, or {@code null}
	 */
	default void report(double progress, double total, @Nullable String message) {
		report(progress, Double.valueOf(total), message);
	}

	/**
	 * Whether anyone is told of the reports, so that a tool can skip work done only to report.
	 * @return {@code false} for {@link #NONE}
	 */
	default boolean isReported() {
		return true;
	}

}
