package dev.agentmiddleware.timeout;

import java.time.Duration;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * Gives tools a timeout per attempt. A timed tool runs on a bounded pool of threads while
 * the caller waits up to the timeout; then the attempt is cancelled, its thread
 * interrupted, and the call fails with a {@link ToolTimeoutException}. Tools without a
 * {@link TimeoutPolicy} are left alone: they run on the caller's thread and cost nothing.
 *
 * <p>
 * <b>Exceptions:</b> the tool's own exception (checked or not) propagates unchanged. When
 * every thread is busy and the queue is full, the call fails at once with a
 * {@link TimedCallException} ({@code SATURATED}) instead of waiting; an interrupted
 * caller cancels the attempt, keeps its interrupt flag and gets a
 * {@link TimedCallException} ({@code INTERRUPTED}). A call {@linkplain CallCancellation
 * cancelled} by its caller stops waiting for its attempt at once and fails with a
 * {@link dev.agentmiddleware.chain.ToolCancelledException}; the attempt's thread is
 * interrupted only for a tool that allows it (tagged
 * {@value CallCancellation#INTERRUPTIBLE_TAG}), other attempts run to their end and their
 * result is dropped.
 *
 * <p>
 * <b>Threading:</b> the invocation reaches the layers inside on the pool's thread, with
 * the running {@link ToolCall} carried along; those layers must not rely on other
 * thread-locals of the caller. An interrupted tool should stop promptly: a tool that
 * ignores interruption keeps its thread busy after its caller has given up.
 *
 * <p>
 * <b>Lifecycle:</b> the middleware owns its threads; {@link #close()} interrupts running
 * attempts and fails calls that are waiting for a thread. <pre>{@code
 * TimeoutMiddleware timeout = TimeoutMiddleware.builder()
 *     .policies((tool) -> tool.hasTag("browser") ? TimeoutPolicy.of(Duration.ofSeconds(30)) : null)
 *     .maxThreads(16)
 *     .queueCapacity(64)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(browserTool, timeout);
 * }</pre>
 */
public final class TimeoutMiddleware extends BuiltInMiddleware<TimeoutPolicy> implements AutoCloseable {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "timeout";

	/** The default largest number of timed attempts running at once. */
	public static final int DEFAULT_MAX_THREADS = 16;

	/** The default largest number of timed calls waiting for a thread. */
	public static final int DEFAULT_QUEUE_CAPACITY = 64;

	private final int maxThreads;

	private final int queueCapacity;

	private final TimeoutExecutor executor;

	private TimeoutMiddleware(Builder builder) {
		super(NAME, builder);
		this.maxThreads = builder.maxThreads;
		this.queueCapacity = builder.queueCapacity;
		this.executor = new TimeoutExecutor(builder.maxThreads, builder.queueCapacity);
	}

	/**
	 * Starts a timeout middleware with no timeouts, {@value #DEFAULT_MAX_THREADS}
	 * threads, a queue of {@value #DEFAULT_QUEUE_CAPACITY} and order
	 * {@link BuiltInOrder#TIMEOUT}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, TimeoutPolicy policy, ToolHandler next) {
		return new TimedHandler(tool.name(), policy.timeout(), next);
	}

	/**
	 * The largest number of timed attempts that run at once.
	 * @return the number of threads of the pool
	 */
	public int maxThreads() {
		return this.maxThreads;
	}

	/**
	 * The largest number of timed calls that wait for a thread.
	 * @return the capacity of the queue
	 */
	public int queueCapacity() {
		return this.queueCapacity;
	}

	/**
	 * How many timed attempts are running now; an attempt whose caller has its result no
	 * longer counts.
	 * @return the number of busy threads
	 */
	public int activeThreads() {
		return this.executor.activeCount();
	}

	/**
	 * How many timed calls are waiting for a thread now.
	 * @return the number of queued calls
	 */
	public int queuedCalls() {
		return this.executor.queuedCount();
	}

	/**
	 * Stops the threads: running attempts are interrupted and calls still waiting for a
	 * thread fail with a {@link TimedCallException} ({@code SHUT_DOWN}), as do calls made
	 * afterwards.
	 */
	@Override
	public void close() {
		this.executor.close();
	}

	@Override
	public String toString() {
		return "TimeoutMiddleware[order=" + order() + ", maxThreads=" + this.maxThreads + ", queueCapacity="
				+ this.queueCapacity + "]";
	}

	private final class TimedHandler implements ToolHandler {

		private final String toolName;

		private final Duration timeout;

		private final long timeoutNanos;

		private final ToolHandler next;

		TimedHandler(String toolName, Duration timeout, ToolHandler next) {
			this.toolName = toolName;
			this.timeout = timeout;
			this.timeoutNanos = saturatedNanos(timeout);
			this.next = next;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			ToolCall call = ToolCall.current();
			CallCancellation cancellation = call.cancellation();
			Future<@Nullable Object> attempt = submit(invocation, call);
			// A cancelled call stops waiting for its attempt; the attempt's tool is
			// interrupted only where it allows it
			try (CallCancellation.Registration stop = cancellation.onCancel(() -> attempt.cancel(false))) {
				return attempt.get(this.timeoutNanos, TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				if (!attempt.cancel(true)) {
					// Finished just as the time ran out: its result or failure is the
					// answer.
					return completed(attempt);
				}
				throw new ToolTimeoutException(this.toolName, NAME, this.timeout);
			}
			catch (ExecutionException ex) {
				throw toolFailure(ex);
			}
			catch (CancellationException ex) {
				if (cancellation.isCancelled()) {
					throw new ToolCancelledException(this.toolName, NAME, cancellation.reason(), null);
				}
				throw shutDown("was cancelled because timed tool calls are shutting down", ex);
			}
			catch (InterruptedException ex) {
				attempt.cancel(true);
				Thread.currentThread().interrupt();
				throw new TimedCallException(this.toolName, NAME, TimedCallException.Reason.INTERRUPTED,
						"Call of tool '" + this.toolName
								+ "' was interrupted while waiting for the tool; the tool was cancelled",
						ex);
			}
		}

		private Future<@Nullable Object> submit(ToolInvocation invocation, ToolCall call) {
			ToolHandler next = this.next;
			try {
				return TimeoutMiddleware.this.executor.submit(call.wrap(() -> next.handle(invocation)));
			}
			catch (RejectedExecutionException ex) {
				if (TimeoutMiddleware.this.executor.isShutdown()) {
					throw shutDown("was not run because timed tool calls are shut down", ex);
				}
				throw new TimedCallException(this.toolName, NAME, TimedCallException.Reason.SATURATED,
						"Tool '" + this.toolName + "' was not run: all " + TimeoutMiddleware.this.maxThreads
								+ " threads for timed tool calls are busy and " + TimeoutMiddleware.this.queueCapacity
								+ " calls are waiting; try again shortly",
						null);
			}
		}

		private @Nullable Object completed(Future<@Nullable Object> attempt) throws Exception {
			try {
				return attempt.get();
			}
			catch (ExecutionException ex) {
				throw toolFailure(ex);
			}
			catch (CancellationException ex) {
				throw shutDown("was cancelled because timed tool calls are shutting down", ex);
			}
		}

		private TimedCallException shutDown(String what, Exception cause) {
			return new TimedCallException(this.toolName, NAME, TimedCallException.Reason.SHUT_DOWN,
					"Tool '" + this.toolName + "' " + what + "; the application is stopping", cause);
		}

		private static Exception toolFailure(ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof Exception exception) {
				return exception;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			return ex;
		}

		private static long saturatedNanos(Duration timeout) {
			try {
				return timeout.toNanos();
			}
			catch (ArithmeticException ex) {
				return Long.MAX_VALUE;
			}
		}

	}

	/**
	 * Builds a {@link TimeoutMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<TimeoutPolicy, Builder> {

		private int maxThreads = DEFAULT_MAX_THREADS;

		private int queueCapacity = DEFAULT_QUEUE_CAPACITY;

		private Builder() {
			super((tool) -> null, BuiltInOrder.TIMEOUT);
		}

		/**
		 * Sets how many timed attempts may run at once (default
		 * {@value TimeoutMiddleware#DEFAULT_MAX_THREADS}).
		 * @param maxThreads at least 1
		 * @return this builder
		 */
		public Builder maxThreads(int maxThreads) {
			if (maxThreads < 1) {
				throw new IllegalArgumentException("maxThreads must be at least 1, was " + maxThreads);
			}
			this.maxThreads = maxThreads;
			return this;
		}

		/**
		 * Sets how many timed calls may wait for a thread before new ones are refused
		 * (default {@value TimeoutMiddleware#DEFAULT_QUEUE_CAPACITY}); {@code 0} refuses
		 * a call as soon as every thread is busy.
		 * @param queueCapacity at least 0
		 * @return this builder
		 */
		public Builder queueCapacity(int queueCapacity) {
			if (queueCapacity < 0) {
				throw new IllegalArgumentException("queueCapacity must not be negative, was " + queueCapacity);
			}
			this.queueCapacity = queueCapacity;
			return this;
		}

		/**
		 * Builds the middleware and its (lazily started) threads; close it when done.
		 * @return the middleware
		 */
		@Override
		public TimeoutMiddleware build() {
			return new TimeoutMiddleware(this);
		}

	}

}
