package dev.agentmiddleware.chain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;

/**
 * The caller's way to cancel one running call, and the layers' way to learn of it: a
 * signal, not a thread interrupt. A caller that may give up on a call creates one, runs
 * the call with it
 * ({@link ToolPipeline#call(dev.agentmiddleware.tool.ToolInvocation, CallCancellation)},
 * or {@link ToolPipeline#callAsync} whose future's {@code cancel} cancels it), and
 * {@linkplain #cancel(String) cancels} it from any thread. The call then ends with a
 * {@link ToolCancelledException} (outcome
 * {@link dev.agentmiddleware.tool.CallOutcome#CANCELLED}):
 * <ul>
 * <li>the call carries it: a layer finds it on the running call
 * ({@code ToolCall.current().cancellation()}, carried to other threads with
 * {@link ToolCall#wrap}) and registers what ends its wait ({@link #onCancel(Runnable)}):
 * the approval wait withdraws its request (audited {@code cancelled}), a timed attempt
 * stops being waited for, a retry makes no further attempt;</li>
 * <li>the tool does not start once the call is cancelled, and a tool already running is
 * interrupted only while its own code runs and only if it allows it, by carrying the tag
 * {@value #INTERRUPTIBLE_TAG} ({@code @AgentTool(tags = "interruptible")}). Other tools
 * run to their end and their result is dropped: an interrupt during JDBC or file-channel
 * I/O can close an embedded database or break a pooled connection, so it is never sent to
 * code that did not ask for it. The interrupt is cleared when the tool's code
 * returns.</li>
 * </ul>
 * <pre>{@code
 * CallCancellation cancellation = new CallCancellation();
 * executor.submit(() -> pipeline.call(invocation, cancellation));
 * ...
 * cancellation.cancel("the user closed the chat");   // the approval request disappears from the console
 * }</pre> Thread-safe; the first {@code cancel} wins. A nested call (a tool calling
 * another tool's pipeline) is cancelled with the call it runs in.
 */
public final class CallCancellation {

	/** The tag of a tool whose thread may be interrupted when its call is cancelled. */
	public static final String INTERRUPTIBLE_TAG = "interruptible";

	private static final Logger logger = LoggerFactory.getLogger(CallCancellation.class);

	// The cancellation of a call whose caller gave none: never cancelled
	static final CallCancellation NEVER = new CallCancellation(false);

	private static final Registration NOTHING = () -> {
	};

	final boolean cancellable;

	private final ReentrantLock lock = new ReentrantLock();

	private final CountDownLatch cancelledLatch = new CountDownLatch(1);

	private volatile boolean cancelled;

	private volatile @Nullable String reason;

	// Set, under the lock, when the tool's own code is entered: a cancellation that finds
	// it unset stops the tool
	// from ever starting
	private volatile boolean toolStarted;

	// Guarded by the lock: what runs on cancel, the threads running an interruptible
	// tool's code, and those of them
	// this cancellation interrupted
	private final List<Runnable> actions = new ArrayList<>(2);

	private final List<Thread> inTool = new ArrayList<>(1);

	private final List<Thread> interrupted = new ArrayList<>(1);

	/**
	 * Creates a cancellation for one call, not cancelled.
	 */
	public CallCancellation() {
		this(true);
	}

	private CallCancellation(boolean cancellable) {
		this.cancellable = cancellable;
	}

	/**
	 * Cancels the call: runs what the layers registered, on this thread, and interrupts
	 * an interruptible tool's running code. Does nothing when the call was cancelled
	 * already.
	 * @param reason why, for the audit trail and the log line, or {@code null}; never a
	 * secret
	 * @return {@code true} if this cancelled the call, {@code false} if it was cancelled
	 * already
	 */
	public boolean cancel(@Nullable String reason) {
		if (!this.cancellable) {
			return false;
		}
		List<Runnable> toRun;
		this.lock.lock();
		try {
			if (this.cancelled) {
				return false;
			}
			this.reason = reason;
			this.cancelled = true;
			toRun = List.copyOf(this.actions);
			this.actions.clear();
			for (Thread thread : this.inTool) {
				if (!this.interrupted.contains(thread)) {
					this.interrupted.add(thread);
					thread.interrupt();
				}
			}
		}
		finally {
			this.lock.unlock();
		}
		this.cancelledLatch.countDown();
		for (Runnable action : toRun) {
			runQuietly(action);
		}
		return true;
	}

	/**
	 * Whether the call was cancelled.
	 * @return {@code true} once {@link #cancel(String)} was called
	 */
	public boolean isCancelled() {
		return this.cancelled;
	}

	/**
	 * Why the call was cancelled.
	 * @return the reason given to {@link #cancel(String)}, or {@code null}
	 */
	public @Nullable String reason() {
		return this.reason;
	}

	/**
	 * Whether the tool's own code started in this call: for a caller that must tell its
	 * client whether a cancelled call may have done anything. Read after
	 * {@link #cancel(String)}, the answer is final: a tool that had not started by then
	 * never starts.
	 * @return {@code true} once the chain reached the tool's own code
	 */
	public boolean toolStarted() {
		return this.toolStarted;
	}

	/**
	 * Registers what ends a layer's wait when the call is cancelled; it runs on the
	 * cancelling thread, at once when the call is cancelled already. Close the
	 * registration when the wait ends. <pre>{@code
	 * try (CallCancellation.Registration stop = ToolCall.current().cancellation().onCancel(() -> attempt.cancel(false))) {
	 *     return attempt.get();
	 * }
	 * }</pre>
	 * @param action what to run; it must not block
	 * @return the registration
	 */
	public Registration onCancel(Runnable action) {
		if (!this.cancellable) {
			return NOTHING;
		}
		this.lock.lock();
		try {
			if (!this.cancelled) {
				this.actions.add(action);
				return () -> remove(action);
			}
		}
		finally {
			this.lock.unlock();
		}
		runQuietly(action);
		return NOTHING;
	}

	/**
	 * Waits until the call is cancelled, at most {@code duration}: a retry's backoff that
	 * ends early on cancellation.
	 * @param duration how long at most
	 * @return {@code true} if the call is cancelled
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public boolean await(Duration duration) throws InterruptedException {
		long nanos = Math.max(0, saturatedNanos(duration));
		if (!this.cancellable) {
			TimeUnit.NANOSECONDS.sleep(nanos);
			return false;
		}
		return this.cancelledLatch.await(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public String toString() {
		return this.cancellable ? "CallCancellation[cancelled=" + this.cancelled + "]" : "CallCancellation[never]";
	}

	// Links this cancellation to that of the call it runs in: a nested call is cancelled
	// with that one too
	Registration linkedTo(@Nullable CallCancellation outer) {
		return (outer != null && outer != this && outer.cancellable) ? outer.onCancel(() -> cancel(outer.reason()))
				: NOTHING;
	}

	// A future whose cancel cancels this call
	<T> CompletableFuture<T> future() {
		return new CancellingFuture<>(this);
	}

	// Runs the tool's own code (in the running call, if any) for a call with this
	// cancellation: not started once the
	// call is cancelled, interrupted only where the tool allows it, and its failure after
	// a cancellation reported as
	// the cancellation. Reached only for a call that can be cancelled
	// (ToolCall.markingExecution, ToolPipeline).
	@Nullable Object guard(ToolDescriptor tool, ToolInvocation invocation, @Nullable ToolCall call, ToolHandler terminal)
			throws Exception {
		if (!start()) {
			throw new ToolCancelledException(tool.name(), null, this.reason, null);
		}
		boolean interruptible = tool.hasTag(INTERRUPTIBLE_TAG);
		if (interruptible) {
			enterTool();
		}
		try {
			return (call != null) ? call.runTool(invocation, terminal) : terminal.handle(invocation);
		}
		catch (Exception ex) {
			if (this.cancelled && !(ex instanceof ToolCancelledException)) {
				throw new ToolCancelledException(tool.name(), null, this.reason, ex);
			}
			throw ex;
		}
		finally {
			if (interruptible) {
				exitTool();
			}
		}
	}

	// Marks the tool as started unless the call is cancelled; one or the other, under the
	// lock that cancel takes
	private boolean start() {
		this.lock.lock();
		try {
			if (this.cancelled) {
				return false;
			}
			this.toolStarted = true;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void enterTool() {
		Thread thread = Thread.currentThread();
		this.lock.lock();
		try {
			this.inTool.add(thread);
			if (this.cancelled && !this.interrupted.contains(thread)) {
				this.interrupted.add(thread);
				thread.interrupt();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	// The interrupt this cancellation sent must not outlive the tool's code: the rest of
	// the chain may do I/O
	private void exitTool() {
		Thread thread = Thread.currentThread();
		this.lock.lock();
		try {
			this.inTool.remove(thread);
			if (!this.inTool.contains(thread) && this.interrupted.remove(thread)) {
				Thread.interrupted();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void remove(Runnable action) {
		this.lock.lock();
		try {
			this.actions.remove(action);
		}
		finally {
			this.lock.unlock();
		}
	}

	private static void runQuietly(Runnable action) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Ending a cancelled call's wait failed: {}", ex.toString());
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/**
	 * Ends what {@link #onCancel(Runnable)} registered; closing it twice does nothing.
	 */
	@FunctionalInterface
	public interface Registration extends AutoCloseable {

		/**
		 * Unregisters the action: it no longer runs on cancel.
		 */
		@Override
		void close();

	}

	/**
	 * The future of {@link ToolPipeline#callAsync}: cancelling it cancels the call.
	 */
	private static final class CancellingFuture<T> extends CompletableFuture<T> {

		private final CallCancellation cancellation;

		CancellingFuture(CallCancellation cancellation) {
			this.cancellation = cancellation;
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			boolean cancelled = super.cancel(mayInterruptIfRunning);
			if (cancelled) {
				this.cancellation.cancel("the caller cancelled the call's future");
			}
			return cancelled;
		}

	}

}
