package dev.agentmiddleware.thread;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.jspecify.annotations.Nullable;

/**
 * A {@link ThreadStore} in this JVM's memory: the default when no database is configured. Metadata is lost when the
 * application stops.
 */
public final class InMemoryThreadStore implements ThreadStore {

	private final ConcurrentMap<String, ThreadMetadata> threads = new ConcurrentHashMap<>();

	@Override
	public ThreadMetadata load(String threadId) {
		ThreadMetadata metadata = this.threads.get(threadId);
		return (metadata != null) ? metadata : ThreadMetadata.empty(threadId);
	}

	@Override
	public boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values) {
		ThreadMetadata next = new ThreadMetadata(current.threadId(), JsonValues.copyOf(values),
				current.version() + 1);
		if (current.version() == 0) {
			return this.threads.putIfAbsent(current.threadId(), next) == null;
		}
		boolean[] written = new boolean[1];
		this.threads.computeIfPresent(current.threadId(), (id, stored) -> {
			if (stored.version() != current.version()) {
				return stored;
			}
			written[0] = true;
			return next;
		});
		return written[0];
	}

}
