package dev.agentmiddleware.audit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import dev.agentmiddleware.cache.ArgumentsFingerprint;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import tools.jackson.databind.JsonNode;

/**
 * The audit trail: a {@link ToolCallObserver} that turns every call record (every path,
 * every outcome, refusals included) into one {@link AuditRecord} and writes it to an
 * {@link AuditStore} off the call's path.
 *
 * <p>
 * On the caller's thread it only takes the call's trace id from the logging context
 * ({@code traceId} in the MDC) and queues the call record; one writer thread builds the
 * records (argument digest, redacted arguments of the tools that include them, result
 * size) and writes them in batches of at most {@code batchSize}. Writing never fails or
 * delays a call, and never loses a record silently:
 * <ul>
 * <li>a batch the store refuses (the database is down) is kept and written again every
 * {@code retryInterval}, while new records wait in the queue; the first failure of an
 * outage is logged once, as is its end, and every failed write is counted
 * ({@link #writeFailures()});</li>
 * <li>at most {@code bufferCapacity} records wait in the queue, plus one batch being
 * written; a record that does not fit is dropped, counted ({@link #droppedRecords()}) and
 * logged once per overflow.</li>
 * </ul>
 * With a {@code retention}, the writer removes the records older than it from the store
 * once per {@code purgeInterval}. {@link #close()} writes what is queued (trying once)
 * and stops the thread. Thread-safe. <pre>{@code
 * AuditTrail audit = AuditTrail.builder(new InMemoryAuditStore(10_000)).retention(Duration.ofDays(90)).build();
 * ToolCallObservers observers = ToolCallObservers.builder().observer(audit).build();
 * }</pre>
 */
public final class AuditTrail implements ToolCallObserver, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(AuditTrail.class);

	/** The MDC key of the current trace id, as Micrometer Tracing sets it. */
	static final String TRACE_ID_KEY = "traceId";

	private final AuditStore store;

	private final BlockingQueue<Pending> queue;

	private final int batchSize;

	private final Duration flushInterval;

	private final Duration retryInterval;

	private final @Nullable Duration retention;

	private final Duration purgeInterval;

	private final Clock clock;

	private final Set<String> argumentTools;

	private final SecretRedactor redactor;

	private final Thread writer;

	private final LongAdder written = new LongAdder();

	private final LongAdder writeFailures = new LongAdder();

	private final LongAdder dropped = new LongAdder();

	private final LongAdder purged = new LongAdder();

	private final AtomicBoolean overflowing = new AtomicBoolean();

	private volatile boolean closed;

	private AuditTrail(Builder builder) {
		this.store = builder.store;
		this.queue = new ArrayBlockingQueue<>(builder.bufferCapacity);
		this.batchSize = builder.batchSize;
		this.flushInterval = builder.flushInterval;
		this.retryInterval = builder.retryInterval;
		this.retention = builder.retention;
		this.purgeInterval = builder.purgeInterval;
		this.clock = builder.clock;
		this.argumentTools = Set.copyOf(builder.argumentTools);
		this.redactor = builder.redactor;
		this.writer = new Thread(this::write, "agent-audit-writer");
		this.writer.setDaemon(true);
		this.writer.start();
	}

	/**
	 * Starts an audit trail writing to a store.
	 * @param store the store
	 * @return a builder
	 */
	public static Builder builder(AuditStore store) {
		return new Builder(store);
	}

	/**
	 * Queues the record of a call; never blocks, never throws.
	 * @param record the call record
	 */
	@Override
	public void onToolCall(ToolCallRecord record) {
		if (this.closed || !this.queue.offer(new Pending(record, MDC.get(TRACE_ID_KEY)))) {
			this.dropped.increment();
			if (this.overflowing.compareAndSet(false, true)) {
				logger.warn("The audit trail's buffer of {} records is full (the audit store is down or too slow); "
						+ "records of further calls are dropped and counted (agent.audit.records.dropped) until "
						+ "it has room", this.queue.remainingCapacity() + this.queue.size());
			}
		}
	}

	/**
	 * Synchronous: the trace id is taken on the caller's thread; the record is built and
	 * written on the writer's.
	 * @return {@code true}
	 */
	@Override
	public boolean synchronous() {
		return true;
	}

	/**
	 * The store records are written to.
	 * @return the store
	 */
	public AuditStore store() {
		return this.store;
	}

	/**
	 * How many records were written to the store.
	 * @return the count since start
	 */
	public long writtenRecords() {
		return this.written.sum();
	}

	/**
	 * How many writes of a batch the store refused (each batch is written again later).
	 * @return the count since start
	 */
	public long writeFailures() {
		return this.writeFailures.sum();
	}

	/**
	 * How many records were dropped because the buffer was full (or the trail closed).
	 * @return the count since start
	 */
	public long droppedRecords() {
		return this.dropped.sum();
	}

	/**
	 * How many records wait in the buffer.
	 * @return the count now
	 */
	public int pendingRecords() {
		return this.queue.size();
	}

	/**
	 * How many records retention removed.
	 * @return the count since start
	 */
	public long purgedRecords() {
		return this.purged.sum();
	}

	/**
	 * Removes the records older than the retention from the store now (the writer does it
	 * once per purge interval).
	 * @return how many were removed; 0 without a retention
	 */
	public int purgeExpired() {
		Duration retention = this.retention;
		if (retention == null) {
			return 0;
		}
		int removed = this.store.purgeBefore(this.clock.instant().minus(retention));
		this.purged.add(removed);
		return removed;
	}

	/**
	 * Writes what is queued (trying once, for at most five seconds) and stops the writer
	 * thread.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.writer.interrupt();
		try {
			this.writer.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void write() {
		List<AuditRecord> batch = new ArrayList<>(this.batchSize);
		List<Pending> taken = new ArrayList<>(this.batchSize);
		boolean outage = false;
		Instant nextPurge = this.clock.instant().plus(this.purgeInterval);
		while (!this.closed) {
			try {
				if (batch.isEmpty() && !take(taken, batch)) {
					continue;
				}
			}
			catch (InterruptedException ex) {
				break;
			}
			if (append(batch)) {
				if (outage) {
					logger.info("The audit store accepts records again; the buffered records are being written");
					outage = false;
				}
				batch.clear();
			}
			else {
				if (!outage) {
					logger.warn(
							"The audit store refused a batch of {} records; they are kept and written again every "
									+ "{}, with up to {} more records buffered meanwhile (failed writes are counted: "
									+ "agent.audit.write.failures)",
							batch.size(), this.retryInterval, this.queue.remainingCapacity() + this.queue.size());
					outage = true;
				}
				try {
					Thread.sleep(this.retryInterval.toMillis());
				}
				catch (InterruptedException ex) {
					break;
				}
			}
			if (this.retention != null && !this.clock.instant().isBefore(nextPurge)) {
				nextPurge = this.clock.instant().plus(this.purgeInterval);
				try {
					purgeExpired();
				}
				catch (RuntimeException ex) {
					logger.warn("The audit store could not purge records older than {}: {}", this.retention,
							ex.toString());
				}
			}
		}
		// Closing: one last try for what is left
		drainTo(taken, batch, Integer.MAX_VALUE);
		if (!batch.isEmpty() && !append(batch)) {
			this.dropped.add(batch.size());
			logger.warn("{} audit records could not be written before the application stopped", batch.size());
		}
	}

	// Waits for the first record for at most the flush interval, then takes what else is
	// queued, up to a batch.
	private boolean take(List<Pending> taken, List<AuditRecord> batch) throws InterruptedException {
		Pending first = this.queue.poll(this.flushInterval.toNanos(), TimeUnit.NANOSECONDS);
		if (first == null) {
			return false;
		}
		taken.add(first);
		drainTo(taken, batch, this.batchSize - 1);
		return true;
	}

	private void drainTo(List<Pending> taken, List<AuditRecord> batch, int max) {
		this.queue.drainTo(taken, max);
		for (Pending pending : taken) {
			batch.add(toAuditRecord(pending));
		}
		taken.clear();
		if (this.queue.remainingCapacity() > 0) {
			this.overflowing.set(false);
		}
	}

	private boolean append(List<AuditRecord> batch) {
		try {
			this.store.append(List.copyOf(batch));
			this.written.add(batch.size());
			return true;
		}
		catch (RuntimeException ex) {
			this.writeFailures.increment();
			logger.debug("The audit store refused a batch of {} records", batch.size(), ex);
			return false;
		}
	}

	AuditRecord toAuditRecord(Pending pending) {
		ToolCallRecord record = pending.record();
		ToolInvocation invocation = record.invocation();
		Map<String, ? extends @Nullable Object> arguments = invocation.arguments();
		return new AuditRecord(record.startedAt(), invocation.callId(), invocation.toolName(), invocation.source(),
				invocation.principalName(), SessionFingerprint.ofNullable(invocation.sessionId()), pending.traceId(),
				record.outcome(), record.decidedBy(), record.approvalRequestId(), record.approvalGrantedBy(),
				record.duration(), ArgumentsFingerprint.of(arguments).sha256(),
				this.argumentTools.contains(invocation.toolName()) ? this.redactor.redactedJson(arguments) : null,
				sizeOf(record.result()), record.clientRequests());
	}

	// Characters of text, bytes of binary content, the length of a result's text
	// otherwise.
	private static @Nullable Long sizeOf(@Nullable Object result) {
		if (result == null) {
			return null;
		}
		if (result instanceof CharSequence text) {
			return (long) text.length();
		}
		if (result instanceof byte[] bytes) {
			return (long) bytes.length;
		}
		if (result instanceof ToolContents contents) {
			return contents.text().length() + contents.binarySize();
		}
		return (long) String.valueOf(result).length();
	}

	record Pending(ToolCallRecord record, @Nullable String traceId) {
	}

	/**
	 * Builds an {@link AuditTrail}.
	 */
	public static final class Builder {

		private final AuditStore store;

		private int bufferCapacity = 10_000;

		private int batchSize = 100;

		private Duration flushInterval = Duration.ofMillis(200);

		private Duration retryInterval = Duration.ofSeconds(5);

		private @Nullable Duration retention;

		private Duration purgeInterval = Duration.ofHours(1);

		private Clock clock = Clock.systemUTC();

		private Set<String> argumentTools = Set.of();

		private SecretRedactor redactor = SecretRedactor.withDefaults();

		private Builder(AuditStore store) {
			this.store = Objects.requireNonNull(store, "store");
		}

		/**
		 * Sets how many records may wait to be written (default 10,000); beyond it
		 * records are dropped and counted.
		 * @param bufferCapacity at least 1
		 * @return this builder
		 */
		public Builder bufferCapacity(int bufferCapacity) {
			this.bufferCapacity = atLeastOne("bufferCapacity", bufferCapacity);
			return this;
		}

		/**
		 * Sets how many records are written at once (default 100).
		 * @param batchSize at least 1
		 * @return this builder
		 */
		public Builder batchSize(int batchSize) {
			this.batchSize = atLeastOne("batchSize", batchSize);
			return this;
		}

		/**
		 * Sets how long the writer waits for a record before it looks at retention again
		 * (default 200 ms).
		 * @param flushInterval a positive duration
		 * @return this builder
		 */
		public Builder flushInterval(Duration flushInterval) {
			this.flushInterval = positive("flushInterval", flushInterval);
			return this;
		}

		/**
		 * Sets how long the writer waits before writing a refused batch again (default 5
		 * s).
		 * @param retryInterval a positive duration
		 * @return this builder
		 */
		public Builder retryInterval(Duration retryInterval) {
			this.retryInterval = positive("retryInterval", retryInterval);
			return this;
		}

		/**
		 * Sets how long records are kept (default: forever, or until an in-memory store's
		 * capacity).
		 * @param retention a positive duration, or {@code null} to keep them
		 * @return this builder
		 */
		public Builder retention(@Nullable Duration retention) {
			this.retention = (retention != null) ? positive("retention", retention) : null;
			return this;
		}

		/**
		 * Sets how often records older than the retention are removed (default hourly).
		 * @param purgeInterval a positive duration
		 * @return this builder
		 */
		public Builder purgeInterval(Duration purgeInterval) {
			this.purgeInterval = positive("purgeInterval", purgeInterval);
			return this;
		}

		/**
		 * Sets the clock of retention (default: the UTC system clock).
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/**
		 * Sets the tools whose records include their arguments, as redacted JSON (default
		 * none: records hold only the digest of the arguments).
		 * @param toolNames the tools' names
		 * @return this builder
		 */
		public Builder argumentsOf(Set<String> toolNames) {
			this.argumentTools = Set.copyOf(toolNames);
			return this;
		}

		/**
		 * Sets the redactor of included arguments (default
		 * {@link SecretRedactor#withDefaults()}).
		 * @param redactor the redactor
		 * @return this builder
		 */
		public Builder redactor(SecretRedactor redactor) {
			this.redactor = Objects.requireNonNull(redactor, "redactor");
			return this;
		}

		/**
		 * Builds the trail and starts its writer thread.
		 * @return the trail
		 */
		public AuditTrail build() {
			return new AuditTrail(this);
		}

		private static int atLeastOne(String name, int value) {
			if (value < 1) {
				throw new IllegalArgumentException(name + " must be at least 1, was " + value);
			}
			return value;
		}

		private static Duration positive(String name, Duration value) {
			if (value.isNegative() || value.isZero()) {
				throw new IllegalArgumentException(name + " must be positive, was " + value);
			}
			return value;
		}

	}

}
