package dev.agentmiddleware.thread;

import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;
import java.util.Objects;

/**
 * Keeps the metadata of each thread (a conversation on the {@code ChatClient} path, a session on the MCP path) as a
 * JSON-friendly map, with atomic per-thread updates.
 *
 * <p>Implementations provide a versioned read and a compare-and-set write; {@link #update} builds the atomic
 * read-modify-write on them with optimistic retries, so concurrent writers never lose an update. Implementations
 * are thread-safe: in memory ({@link InMemoryThreadStore}) or in a database shared by several instances.
 * <pre>{@code
 * store.update("conversation-42", (metadata) -> {
 *     Map<String, Object> changed = new LinkedHashMap<>(metadata);
 *     changed.put("todos", List.of(Map.of("id", "1", "text", "Read the file", "status", "pending")));
 *     return changed;
 * });
 * }</pre>
 */
public interface ThreadStore {

	/** How many times {@link #update} tries before giving up with a {@link ThreadUpdateConflictException}. */
	int MAX_UPDATE_ATTEMPTS = 100;

	/**
	 * Reads a thread's metadata.
	 * @param threadId the thread
	 * @return its metadata, {@linkplain ThreadMetadata#empty(String) empty} at version 0 when never written
	 */
	ThreadMetadata load(String threadId);

	/**
	 * Writes a thread's metadata if nobody wrote it since it was read.
	 * @param current the metadata as read, whose version must still be the stored one
	 * @param values the new metadata, replacing all of it
	 * @return {@code true} if written (the stored version is now {@code current.version() + 1}), {@code false} if
	 * another writer came first and nothing was written
	 * @throws IllegalArgumentException if a value is not JSON-friendly
	 */
	boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values);

	/**
	 * Changes a thread's metadata atomically: reads it, applies {@code change}, and writes the result if nobody
	 * wrote in between, otherwise tries again with the newer metadata. An exception from {@code change}
	 * propagates and changes nothing.
	 * @param threadId the thread
	 * @param change computes the new metadata from the current one (an unmodifiable map); may run more than once,
	 * so it must have no side effects
	 * @return the metadata as written
	 * @throws ThreadUpdateConflictException if other writers won {@value #MAX_UPDATE_ATTEMPTS} times in a row
	 */
	default ThreadMetadata update(String threadId, UnaryOperator<Map<String, @Nullable Object>> change) {
		for (int attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
			ThreadMetadata current = load(threadId);
			Map<String, @Nullable Object> values = change.apply(current.values());
			if (compareAndSet(current, values)) {
				return new ThreadMetadata(threadId, values, current.version() + 1);
			}
			Thread.onSpinWait();
		}
		throw new ThreadUpdateConflictException(threadId, MAX_UPDATE_ATTEMPTS);
	}

	/**
	 * An update of a thread's metadata lost the race against concurrent writers more often than the store retries.
	 */
	public static class ThreadUpdateConflictException extends RuntimeException {

		/**
		 * Creates the exception.
		 * @param threadId the thread
		 * @param attempts how many times the update was tried
		 */
		public ThreadUpdateConflictException(String threadId, int attempts) {
			super("Thread '" + threadId + "' changed concurrently " + attempts
					+ " times while updating its metadata; the update was not applied");
		}

	}

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

}
