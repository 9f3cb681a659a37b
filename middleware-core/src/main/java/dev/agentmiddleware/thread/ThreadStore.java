package dev.agentmiddleware.thread;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Keeps the metadata of each thread (a conversation on the {@code ChatClient} path, a
 * session on the MCP path) as a JSON-friendly map, with atomic per-thread updates.
 *
 * <p>
 * Implementations provide a versioned read and a compare-and-set write; {@link #update}
 * builds the atomic read-modify-write on them with optimistic retries, so concurrent
 * writers never lose an update. Implementations are thread-safe: in memory
 * ({@link InMemoryThreadStore}) or in a database shared by several instances. <pre>{@code
 * store.update("conversation-42", (metadata) -> {
 *     Map<String, Object> changed = new LinkedHashMap<>(metadata);
 *     changed.put("todos", List.of(Map.of("id", "1", "text", "Read the file", "status", "pending")));
 *     return changed;
 * });
 * }</pre>
 */
public interface ThreadStore {

	/**
	 * How many times {@link #update} tries before giving up with a
	 * {@link ThreadUpdateConflictException}.
	 */
	int MAX_UPDATE_ATTEMPTS = 100;

	/**
	 * Reads a thread's metadata.
	 * @param threadId the thread
	 * @return its metadata, {@linkplain ThreadMetadata#empty(String) empty} at version 0
	 * when never written
	 */
	ThreadMetadata load(String threadId);

	/**
	 * Writes a thread's metadata if nobody wrote it since it was read.
	 * @param current the metadata as read, whose version must still be the stored one
	 * @param values the new metadata, replacing all of it
	 * @return {@code true} if written (the stored version is now
	 * {@code current.version() + 1}), {@code false} if another writer came first and
	 * nothing was written
	 * @throws IllegalArgumentException if a value is not JSON-friendly
	 */
	boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values);

	/**
	 * Changes a thread's metadata atomically: reads it, applies {@code change}, and
	 * writes the result if nobody wrote in between, otherwise tries again with the newer
	 * metadata. An exception from {@code change} propagates and changes nothing.
	 * @param threadId the thread
	 * @param change computes the new metadata from the current one (an unmodifiable map);
	 * may run more than once, so it must have no side effects
	 * @return the metadata as written
	 * @throws ThreadUpdateConflictException if other writers won
	 * {@value #MAX_UPDATE_ATTEMPTS} times in a row
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
	 * An update of a thread's metadata lost the race against concurrent writers more
	 * often than the store retries.
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
	 * The metadata of one thread as stored: a JSON-friendly map and the version it was
	 * read at. <pre>{@code
	 * ThreadMetadata metadata = store.load("conversation-42");
	 * Object todos = metadata.get("todos");
	 * }</pre>
	 *
	 * @param threadId the thread (conversation id or MCP session id)
	 * @param values the metadata: an unmodifiable map of JSON values (maps, lists,
	 * strings, numbers, booleans, {@code null})
	 * @param version how many times the thread was written; {@code 0} for a thread never
	 * written
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

	/**
	 * A {@link ThreadStore} in this JVM's memory: the default when no database is
	 * configured. Metadata is lost when the application stops, and the store holds at
	 * most {@code maxThreads} threads: beyond it, the thread used least recently is
	 * forgotten (its next load is empty, as for a new thread). Use a JDBC store for
	 * threads that must last. Thread-safe. <pre>{@code
	 * ThreadStore threads = new InMemoryThreadStore(10_000);
	 * }</pre>
	 */
	public static final class InMemoryThreadStore implements ThreadStore {

		/** How many threads are kept by default. */
		public static final int DEFAULT_MAX_THREADS = 10_000;

		// In access order, so that the eldest entry is the thread used least recently.
		private final LinkedHashMap<String, ThreadMetadata> threads = new LinkedHashMap<>(16, 0.75f, true);

		private final int maxThreads;

		/**
		 * Creates a store keeping at most {@value #DEFAULT_MAX_THREADS} threads.
		 */
		public InMemoryThreadStore() {
			this(DEFAULT_MAX_THREADS);
		}

		/**
		 * Creates a store.
		 * @param maxThreads how many threads to keep at most
		 */
		public InMemoryThreadStore(int maxThreads) {
			if (maxThreads < 1) {
				throw new IllegalArgumentException("maxThreads must be at least 1, was " + maxThreads);
			}
			this.maxThreads = maxThreads;
		}

		@Override
		public ThreadMetadata load(String threadId) {
			ThreadMetadata metadata;
			synchronized (this.threads) {
				metadata = this.threads.get(threadId);
			}
			return (metadata != null) ? metadata : ThreadMetadata.empty(threadId);
		}

		@Override
		public boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values) {
			ThreadMetadata next = new ThreadMetadata(current.threadId(), JsonValues.copyOf(values),
					current.version() + 1);
			synchronized (this.threads) {
				ThreadMetadata stored = this.threads.get(current.threadId());
				long storedVersion = (stored != null) ? stored.version() : 0;
				if (storedVersion != current.version()) {
					return false;
				}
				this.threads.put(current.threadId(), next);
				if (this.threads.size() > this.maxThreads) {
					Iterator<String> leastRecentlyUsed = this.threads.keySet().iterator();
					leastRecentlyUsed.next();
					leastRecentlyUsed.remove();
				}
				return true;
			}
		}

		/**
		 * How many threads the store holds.
		 * @return the number of threads
		 */
		public int size() {
			synchronized (this.threads) {
				return this.threads.size();
			}
		}

	}

}
