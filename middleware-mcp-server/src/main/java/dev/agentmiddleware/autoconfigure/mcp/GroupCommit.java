package dev.agentmiddleware.autoconfigure.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * One write for what many threads ask at once: a thread that asks while no write runs
 * writes its item at once; one that asks while a write runs waits for it, then the first
 * of the waiting threads writes every item asked meanwhile (at most {@code maxGroup}, in
 * the order asked) in one write, and each thread gets its own item's result. A quiet
 * server therefore waits for nothing, and a busy one writes in groups as large as its
 * writes are slow: the database's own group commit, one level up, where it also saves the
 * statement, the transaction and the round trip of each item.
 *
 * <p>
 * A write that throws fails every item of its group with the same exception, thrown to
 * each of their threads; the next group is written as usual. The writes never overlap. A
 * thread waits for the write running when it asked, then for the one of its group, and
 * goes on as soon as its item is written (the writer wakes it); after each write, the
 * thread of the first item still asked for is woken to write the next group. An interrupt
 * does not end the wait: it is kept for the thread to see afterwards. <pre>{@code
 * GroupCommit<String, Boolean> ends = new GroupCommit<>(64, (keys) -> {
 *     jdbc.update("DELETE FROM t WHERE id IN (" + placeholders(keys.size()) + ")", keys.toArray());
 *     return Collections.nCopies(keys.size(), true);
 * });
 * ends.write(key); // from any number of threads
 * }</pre>
 *
 * @param <I> the items asked for
 * @param <R> the result of each item's write
 */
final class GroupCommit<I, R> {

	private final int maxGroup;

	private final Function<List<I>, List<R>> write;

	private final Queue<Asked<I, R>> asked = new ConcurrentLinkedQueue<>();

	private final ReentrantLock writing = new ReentrantLock();

	/**
	 * Groups the writes of {@code write}.
	 * @param maxGroup the most items of one write
	 * @param write writes a group of items, in the order given, and gives one result per
	 * item, in the same order
	 */
	GroupCommit(int maxGroup, Function<List<I>, List<R>> write) {
		if (maxGroup < 1) {
			throw new IllegalArgumentException("maxGroup must be at least 1, was " + maxGroup);
		}
		this.maxGroup = maxGroup;
		this.write = write;
	}

	/**
	 * Writes {@code item}, alone or in a group with the items other threads ask for at
	 * the same time.
	 * @param item the item to write
	 * @return the item's result
	 * @throws RuntimeException what the write of its group threw
	 */
	@Nullable R write(I item) {
		Asked<I, R> mine = new Asked<>(item, Thread.currentThread());
		this.asked.add(mine);
		boolean interrupted = false;
		while (!mine.done) {
			if (this.writing.tryLock()) {
				try {
					// Mine is queued: this group takes it, unless earlier items fill it
					if (!mine.done) {
						writeGroup();
					}
				}
				finally {
					this.writing.unlock();
				}
				// The first item still asked for gets a writer: its thread, woken to try
				// the lock (whoever holds it then wakes the first item's thread in turn)
				Asked<I, R> next = this.asked.peek();
				if (next != null) {
					LockSupport.unpark(next.thread);
				}
			}
			else {
				// Woken when its item is written, or to try the lock
				LockSupport.park(this);
				interrupted |= Thread.interrupted();
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		return mine.result();
	}

	/** The items asked for and not yet taken by a write. */
	int waiting() {
		return this.asked.size();
	}

	private void writeGroup() {
		List<Asked<I, R>> group = new ArrayList<>();
		Asked<I, R> next;
		while (group.size() < this.maxGroup && (next = this.asked.poll()) != null) {
			group.add(next);
		}
		List<I> items = new ArrayList<>(group.size());
		for (Asked<I, R> one : group) {
			items.add(one.item);
		}
		List<R> results;
		try {
			results = this.write.apply(items);
			if (results.size() != group.size()) {
				throw new IllegalStateException(
						"A group write gave " + results.size() + " results for " + group.size() + " items");
			}
		}
		catch (RuntimeException | Error ex) {
			for (Asked<I, R> one : group) {
				one.fail(ex);
			}
			return;
		}
		for (int i = 0; i < group.size(); i++) {
			group.get(i).succeed(results.get(i));
		}
	}

	// Written by the thread that writes its group, then read by its own thread (after
	// done, which publishes the rest)
	private static final class Asked<I, R> {

		private final I item;

		private final Thread thread;

		private @Nullable R result;

		private @Nullable Throwable failure;

		private volatile boolean done;

		Asked(I item, Thread thread) {
			this.item = item;
			this.thread = thread;
		}

		void succeed(R result) {
			this.result = result;
			this.done = true;
			LockSupport.unpark(this.thread);
		}

		void fail(Throwable failure) {
			this.failure = failure;
			this.done = true;
			LockSupport.unpark(this.thread);
		}

		@Nullable R result() {
			if (this.failure instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
			return this.result;
		}

	}

}
