package dev.agentmiddleware.timeout;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded pool that timed tools run on: at most {@code maxThreads} threads, at most
 * {@code queueCapacity} waiting calls, and an immediate
 * {@link RejectedExecutionException} beyond that. Idle threads end after a minute.
 */
final class TimeoutExecutor implements AutoCloseable {

	private static final AtomicInteger POOL_COUNTER = new AtomicInteger();

	private final ThreadPoolExecutor pool;

	// Counted by the task itself, so a caller that has its result already sees the
	// attempt as finished; the pool's
	// own active count drops only after the result is handed over.
	private final AtomicInteger running = new AtomicInteger();

	TimeoutExecutor(int maxThreads, int queueCapacity) {
		BlockingQueue<Runnable> queue = (queueCapacity > 0) ? new ArrayBlockingQueue<>(queueCapacity)
				: new SynchronousQueue<>();
		this.pool = new ThreadPoolExecutor(maxThreads, maxThreads, 60, TimeUnit.SECONDS, queue,
				threadFactory("agent-tool-timeout-" + POOL_COUNTER.incrementAndGet() + "-"),
				new ThreadPoolExecutor.AbortPolicy());
		this.pool.allowCoreThreadTimeOut(true);
	}

	<T> Future<T> submit(Callable<T> task) {
		return this.pool.submit(() -> {
			this.running.incrementAndGet();
			try {
				return task.call();
			}
			finally {
				this.running.decrementAndGet();
			}
		});
	}

	int activeCount() {
		return this.running.get();
	}

	int queuedCount() {
		return this.pool.getQueue().size();
	}

	boolean isShutdown() {
		return this.pool.isShutdown();
	}

	/**
	 * Interrupts running attempts and cancels waiting ones, so that no caller waits for a
	 * call that will never run.
	 */
	@Override
	public void close() {
		List<Runnable> neverStarted = this.pool.shutdownNow();
		for (Runnable task : neverStarted) {
			if (task instanceof Future<?> future) {
				future.cancel(false);
			}
		}
	}

	private static ThreadFactory threadFactory(String prefix) {
		AtomicInteger counter = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
