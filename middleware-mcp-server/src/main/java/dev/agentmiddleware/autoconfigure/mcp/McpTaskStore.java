package dev.agentmiddleware.autoconfigure.mcp;

import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Where the tasks of the MCP tasks extension live, so that any instance answers
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}: in memory for one
 * instance ({@link InMemoryMcpTaskStore}), in the database every instance shares for
 * several ({@link JdbcMcpTaskStore}). A task expires {@link McpTask#ttlMs()} after its
 * last change; an expired task is not found. Thread-safe.
 */
interface McpTaskStore {

	/**
	 * Stores a new task; when this returns, {@link #find} finds it on every instance.
	 * @param task the task
	 */
	void create(McpTask task);

	/**
	 * The task of an id.
	 * @param id the task's id
	 * @return the task, or {@code null} when unknown or expired
	 */
	@Nullable McpTask find(String id);

	/**
	 * Changes a task atomically: no other change of it is lost between the read and the
	 * write.
	 * @param id the task's id
	 * @param change the new value from the current one; returns its argument for no
	 * change
	 * @return the task after the change, or {@code null} when unknown or expired
	 */
	@Nullable McpTask update(String id, UnaryOperator<McpTask> change);

}
