package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * The tasks of one instance, in its memory: another instance does not know them. Expired
 * tasks are dropped when found, and all of them whenever a task is created.
 */
final class InMemoryMcpTaskStore implements McpTaskStore {

	private final Map<String, McpTask> tasks = new ConcurrentHashMap<>();

	private final Clock clock;

	InMemoryMcpTaskStore(Clock clock) {
		this.clock = clock;
	}

	@Override
	public void create(McpTask task) {
		long now = this.clock.millis();
		this.tasks.values().removeIf((each) -> each.expiresAt() <= now);
		this.tasks.put(task.id(), task);
	}

	@Override
	public @Nullable McpTask find(String id) {
		return update(id, UnaryOperator.identity());
	}

	@Override
	public @Nullable McpTask update(String id, UnaryOperator<McpTask> change) {
		long now = this.clock.millis();
		return this.tasks.computeIfPresent(id, (key, task) -> (task.expiresAt() <= now) ? null : change.apply(task));
	}

}
