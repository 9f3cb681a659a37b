package dev.agentmiddleware.callrecord;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The observer tier: wraps a pipeline so that every call produces one
 * {@link ToolCallRecord}, and delivers it to the {@link ToolCallObserver}s without
 * letting them fail or delay the call.
 *
 * <p>
 * Asynchronous observers get records from a bounded queue drained by one daemon thread;
 * when the queue is full the record is dropped and counted ({@link #droppedRecords()}).
 * Synchronous observers are called on the caller's thread after the call; their
 * exceptions are logged and swallowed. {@link #close()} delivers what is queued and stops
 * the thread. Thread-safe. <pre>{@code
 * try (ToolCallObservers observers = ToolCallObservers.builder().observer(learning).build()) {
 *     ToolPipeline pipeline = ToolPipeline.builder(tool, handler).observers(observers).build();
 *     pipeline.call(invocation);
 * }
 * }</pre>
 */
public final class ToolCallObservers implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ToolCallObservers.class);

	private static final ToolCallRecord STOP = new ToolCallRecord(
			ToolInvocation.builder(dev.agentmiddleware.tool.ToolDescriptor.builder("stop").build()).build(),
			CallOutcome.SUCCEEDED, null, null, java.time.Instant.EPOCH, Duration.ZERO, null);

	private final List<ToolCallObserver> synchronousObservers;

	private final List<ToolCallObserver> asynchronousObservers;

	private final @Nullable BlockingQueue<ToolCallRecord> queue;

	private final @Nullable Thread worker;

	private final Clock clock;

	private final LongAdder dropped = new LongAdder();

	private final LongAdder observerFailures = new LongAdder();

	private volatile boolean closed;

	private ToolCallObservers(Builder builder) {
		List<ToolCallObserver> sync = new ArrayList<>();
		List<ToolCallObserver> async = new ArrayList<>();
		for (ToolCallObserver observer : builder.observers) {
			(observer.synchronous() ? sync : async).add(observer);
		}
		this.synchronousObservers = List.copyOf(sync);
		this.asynchronousObservers = List.copyOf(async);
		this.clock = builder.clock;
		if (async.isEmpty()) {
			this.queue = null;
			this.worker = null;
		}
		else {
			this.queue = new ArrayBlockingQueue<>(builder.queueCapacity);
			Thread thread = new Thread(this::drain, "tool-call-observers");
			thread.setDaemon(true);
			thread.start();
			this.worker = thread;
		}
	}

	/**
	 * Starts a set of observers.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Whether there is no observer at all; pipelines then skip the observer tier
	 * entirely.
	 * @return {@code true} when empty
	 */
	public boolean isEmpty() {
		return this.synchronousObservers.isEmpty() && this.asynchronousObservers.isEmpty();
	}

	/**
	 * Delivers a record to every observer: synchronous ones now, asynchronous ones
	 * through the queue.
	 * @param record the record
	 */
	public void dispatch(ToolCallRecord record) {
		for (ToolCallObserver observer : this.synchronousObservers) {
			deliver(observer, record);
		}
		BlockingQueue<ToolCallRecord> queue = this.queue;
		if (queue != null && (this.closed || !queue.offer(record))) {
			this.dropped.increment();
		}
	}

	/**
	 * How many records were dropped because the asynchronous queue was full (or the
	 * observers were closed).
	 * @return the count since start
	 */
	public long droppedRecords() {
		return this.dropped.sum();
	}

	/**
	 * How many times an observer threw.
	 * @return the count since start
	 */
	public long observerFailures() {
		return this.observerFailures.sum();
	}

	/**
	 * The clock that stamps {@link ToolCallRecord#startedAt()}.
	 * @return the clock
	 */
	public Clock clock() {
		return this.clock;
	}

	/**
	 * Delivers the queued records (waiting at most five seconds) and stops the background
	 * thread.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		Thread worker = this.worker;
		BlockingQueue<ToolCallRecord> queue = this.queue;
		if (worker != null && queue != null) {
			try {
				// offer, not put: with a stuck observer and a full queue, put would block
				// forever
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
				if (queue.offer(STOP, 5, TimeUnit.SECONDS)) {
					worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			worker.interrupt();
		}
	}

	private void drain() {
		BlockingQueue<ToolCallRecord> queue = Objects.requireNonNull(this.queue);
		while (true) {
			ToolCallRecord record;
			try {
				record = queue.take();
			}
			catch (InterruptedException ex) {
				return;
			}
			if (record == STOP) {
				return;
			}
			for (ToolCallObserver observer : this.asynchronousObservers) {
				deliver(observer, record);
			}
		}
	}

	private void deliver(ToolCallObserver observer, ToolCallRecord record) {
		try {
			observer.onToolCall(record);
		}
		catch (Throwable ex) {
			// Errors too (an AssertionError in an observer must not fail the call or stop
			// the worker thread),
			// except those the JVM cannot recover from.
			if (ex instanceof VirtualMachineError error) {
				throw error;
			}
			this.observerFailures.increment();
			logger.warn("Observer {} failed on a call of tool '{}'; the call was not affected",
					observer.getClass().getName(), record.invocation().toolName(), ex);
		}
	}

	/**
	 * Builds {@link ToolCallObservers}.
	 */
	public static final class Builder {

		private final List<ToolCallObserver> observers = new ArrayList<>();

		private int queueCapacity = 1024;

		private Clock clock = Clock.systemUTC();

		private Builder() {
		}

		/**
		 * Adds an observer.
		 * @param observer the observer
		 * @return this builder
		 */
		public Builder observer(ToolCallObserver observer) {
			this.observers.add(Objects.requireNonNull(observer, "observer"));
			return this;
		}

		/**
		 * Adds observers.
		 * @param observers the observers
		 * @return this builder
		 */
		public Builder observers(List<? extends ToolCallObserver> observers) {
			observers.forEach(this::observer);
			return this;
		}

		/**
		 * Sets how many records may wait for asynchronous observers before new ones are
		 * dropped (default 1024).
		 * @param queueCapacity the capacity, at least 1
		 * @return this builder
		 */
		public Builder queueCapacity(int queueCapacity) {
			if (queueCapacity < 1) {
				throw new IllegalArgumentException("queueCapacity must be at least 1, was " + queueCapacity);
			}
			this.queueCapacity = queueCapacity;
			return this;
		}

		/**
		 * Sets the clock used for {@link ToolCallRecord#startedAt()} (default: the UTC
		 * system clock).
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/**
		 * Builds the observers, starting the background thread if any observer is
		 * asynchronous.
		 * @return the observers
		 */
		public ToolCallObservers build() {
			return new ToolCallObservers(this);
		}

	}

}
