package dev.agentmiddleware.thread;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;

/**
 * A {@link ThreadStore} in this JVM's memory: the default when no database is configured. Metadata is lost when the
 * application stops, and the store holds at most {@code maxThreads} threads: beyond it, the thread used least
 * recently is forgotten (its next load is empty, as for a new thread). Use a JDBC store for threads that must
 * last. Thread-safe.
 * <pre>{@code
 * ThreadStore threads = new InMemoryThreadStore(10_000);
 * }</pre>
 */
public final class InMemoryThreadStore implements ThreadStore {

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
