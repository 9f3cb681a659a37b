package dev.agentmiddleware.thread;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The metadata of one thread as stored: a JSON-friendly map and the version it was read at.
 * <pre>{@code
 * ThreadMetadata metadata = store.load("conversation-42");
 * Object todos = metadata.get("todos");
 * }</pre>
 *
 * @param threadId the thread (conversation id or MCP session id)
 * @param values the metadata: an unmodifiable map of JSON values (maps, lists, strings, numbers, booleans,
 * {@code null})
 * @param version how many times the thread was written; {@code 0} for a thread never written
 */
public record ThreadMetadata(String threadId, Map<String, @Nullable Object> values, long version) {

	/**
	 * Validates and freezes the values.
	 */
	public ThreadMetadata {
		Objects.requireNonNull(threadId, "threadId");
		values = JsonValues.copyOf(values);
		if (version < 0) {
			throw new IllegalArgumentException("version must not be negative");
		}
	}

	/**
	 * The metadata of a thread never written.
	 * @param threadId the thread
	 * @return empty metadata at version 0
	 */
	public static ThreadMetadata empty(String threadId) {
		return new ThreadMetadata(threadId, Map.of(), 0);
	}

	/**
	 * One value.
	 * @param key the key
	 * @return the value, or {@code null} when absent
	 */
	public @Nullable Object get(String key) {
		return this.values.get(key);
	}

}
