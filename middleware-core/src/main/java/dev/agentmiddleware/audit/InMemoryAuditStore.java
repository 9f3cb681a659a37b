package dev.agentmiddleware.audit;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * An {@link AuditStore} in this JVM's memory, for one instance: holds at most a given
 * number of records and drops the oldest beyond it (the newest are kept). Lost on
 * restart. Thread-safe. <pre>{@code
 * AuditStore store = new InMemoryAuditStore(10_000);
 * }</pre>
 */
public final class InMemoryAuditStore implements AuditStore {

	private final int capacity;

	private final ArrayDeque<AuditRecord> records = new ArrayDeque<>();

	/**
	 * Creates a store.
	 * @param capacity how many records it keeps, at least 1
	 */
	public InMemoryAuditStore(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
		}
		this.capacity = capacity;
	}

	@Override
	public synchronized void append(List<AuditRecord> records) {
		for (AuditRecord record : records) {
			if (this.records.size() == this.capacity) {
				this.records.removeFirst();
			}
			this.records.addLast(record);
		}
	}

	@Override
	public synchronized List<AuditRecord> find(AuditQuery query) {
		List<AuditRecord> page = new ArrayList<>();
		long skip = query.offset();
		Iterator<AuditRecord> newestFirst = this.records.descendingIterator();
		while (newestFirst.hasNext() && page.size() < query.size()) {
			AuditRecord record = newestFirst.next();
			if (query.matches(record)) {
				if (skip > 0) {
					skip--;
				}
				else {
					page.add(record);
				}
			}
		}
		return page;
	}

	@Override
	public synchronized int purgeBefore(Instant cutoff) {
		int before = this.records.size();
		this.records.removeIf((record) -> record.time().isBefore(cutoff));
		return before - this.records.size();
	}

	/**
	 * How many records the store holds.
	 * @return the count
	 */
	public synchronized int size() {
		return this.records.size();
	}

}
