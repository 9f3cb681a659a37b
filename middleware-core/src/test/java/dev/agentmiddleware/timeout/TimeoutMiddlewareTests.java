package dev.agentmiddleware.timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeoutMiddlewareTests {

	private static final ToolDescriptor SLOW = ToolDescriptor.builder("open_page").tags("browser").build();

	private static final ToolDescriptor PLAIN = ToolDescriptor.builder("read_file").build();

	private static final Duration SHORT = Duration.ofMillis(50);

	private final ExecutorService callers = Executors.newCachedThreadPool();

	private final CountDownLatch release = new CountDownLatch(1);

	private final CountDownLatch started = new CountDownLatch(1);

	private final CountDownLatch interrupted = new CountDownLatch(1);

	// Long enough that a loaded machine never times out a call that should finish; the
	// timeout test sets SHORT
	private TimeoutMiddleware middleware = browserTimeout(Duration.ofMinutes(1)).build();

	@AfterEach
	void close() {
		this.release.countDown();
		this.middleware.close();
		this.callers.shutdownNow();
	}

	@Test
	void aToolThatTakesTooLongFailsWithTheTimeoutAndIsInterrupted() {
		this.middleware.close();
		this.middleware = browserTimeout(SHORT).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		assertThatExceptionOfType(ToolTimeoutException.class).isThrownBy(() -> pipeline.call(call(SLOW)))
			.satisfies((ex) -> {
				assertThat(ex.toolName()).isEqualTo("open_page");
				assertThat(ex.decidedBy()).isEqualTo("timeout");
				assertThat(ex.timeout()).isEqualTo(SHORT);
				assertThat(ex.outcome()).isEqualTo(CallOutcome.TIMED_OUT);
			})
			.withMessage("Tool 'open_page' timed out after 50ms; try again later or with a smaller request");
		assertThat(await(this.interrupted)).as("the tool's thread was interrupted").isTrue();
	}

	@Test
	void aFastToolReturnsItsResultFromAnotherThread() throws Exception {
		AtomicReference<Thread> toolThread = new AtomicReference<>();
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofSeconds(30)).build();
		ToolPipeline pipeline = pipeline(SLOW, (invocation) -> {
			toolThread.set(Thread.currentThread());
			return "opened " + invocation.argument("url");
		});
		assertThat(pipeline.call(call(SLOW))).isEqualTo("opened https://example.org");
		assertThat(toolThread.get()).isNotSameAs(Thread.currentThread());
		assertThat(toolThread.get().getName()).startsWith("agent-tool-timeout-");
	}

	@Test
	void aToolsCheckedExceptionPropagatesUnchanged() {
		IOException failure = new IOException("connection refused");
		ToolPipeline pipeline = pipeline(SLOW, (invocation) -> {
			throw failure;
		});
		assertThatThrownBy(() -> pipeline.call(call(SLOW))).isSameAs(failure);
	}

	@Test
	void aToolsRuntimeExceptionAndErrorPropagateUnchanged() {
		IllegalStateException failure = new IllegalStateException("bad state");
		assertThatThrownBy(() -> pipeline(SLOW, (invocation) -> {
			throw failure;
		}).call(call(SLOW))).isSameAs(failure);
		AssertionError error = new AssertionError("broken");
		assertThatThrownBy(() -> pipeline(SLOW, (invocation) -> {
			throw error;
		}).call(call(SLOW))).isSameAs(error);
	}

	@Test
	void toolsWithoutATimeoutAreNotWrappedAndRunOnTheCallersThread() throws Exception {
		AtomicReference<Thread> toolThread = new AtomicReference<>();
		ToolHandler tool = (invocation) -> {
			toolThread.set(Thread.currentThread());
			return "read";
		};
		assertThat(this.middleware.wrap(PLAIN, tool)).isSameAs(tool);
		ToolPipeline pipeline = pipeline(PLAIN, tool);
		assertThat(pipeline.layers()).containsExactly("read_file");
		assertThat(pipeline.call(call(PLAIN))).isEqualTo("read");
		assertThat(toolThread.get()).isSameAs(Thread.currentThread());
		assertThat(pipeline(SLOW, tool).layers()).containsExactly("timeout", "open_page");
	}

	@Test
	void aFullPoolRefusesACallAtOnceInsteadOfWaiting() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).maxThreads(1).queueCapacity(0).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		Future<Object> first = this.callers.submit(() -> pipeline.call(call(SLOW)));
		assertThat(await(this.started)).isTrue();
		assertThatExceptionOfType(TimedCallException.class).isThrownBy(() -> pipeline.call(call(SLOW)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(TimedCallException.Reason.SATURATED))
			.withMessage("Tool 'open_page' was not run: all 1 threads for timed tool calls are busy and 0 calls "
					+ "are waiting; try again shortly");
		this.release.countDown();
		assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("released");
	}

	@Test
	void callsWaitInTheQueueForAFreeThread() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).maxThreads(1).queueCapacity(1).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		Future<Object> first = this.callers.submit(() -> pipeline.call(call(SLOW)));
		assertThat(await(this.started)).isTrue();
		Future<Object> second = this.callers.submit(() -> pipeline.call(call(SLOW)));
		this.release.countDown();
		assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("released");
		assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("released");
	}

	@Test
	void aCallerThatHasItsResultSeesNoAttemptRunning() throws Exception {
		ToolPipeline pipeline = pipeline(SLOW, (invocation) -> "done");
		for (int i = 0; i < 200; i++) {
			assertThat(pipeline.call(call(SLOW))).isEqualTo("done");
			assertThat(this.middleware.activeThreads()).isZero();
		}
	}

	@Test
	void reportsItsPoliciesAndHowBusyItsPoolIs() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).maxThreads(1).queueCapacity(2).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		pipeline(PLAIN, (invocation) -> "read");
		assertThat(this.middleware.policies())
			.containsExactly(Map.entry("open_page", TimeoutPolicy.of(Duration.ofMinutes(1))));
		assertThat(this.middleware.maxThreads()).isOne();
		assertThat(this.middleware.queueCapacity()).isEqualTo(2);
		assertThat(this.middleware.activeThreads()).isZero();
		assertThat(this.middleware.queuedCalls()).isZero();
		Future<Object> first = this.callers.submit(() -> pipeline.call(call(SLOW)));
		assertThat(await(this.started)).isTrue();
		Future<Object> second = this.callers.submit(() -> pipeline.call(call(SLOW)));
		while (this.middleware.queuedCalls() == 0 && !second.isDone()) {
			Thread.onSpinWait();
		}
		assertThat(this.middleware.activeThreads()).isOne();
		assertThat(this.middleware.queuedCalls()).isOne();
		this.release.countDown();
		assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("released");
		assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("released");
	}

	@Test
	void anInterruptedCallerCancelsTheToolAndKeepsItsInterruptFlag() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		AtomicBoolean flagKept = new AtomicBoolean();
		AtomicReference<Exception> failure = new AtomicReference<>();
		Thread caller = new Thread(() -> {
			try {
				pipeline.call(call(SLOW));
			}
			catch (Exception ex) {
				failure.set(ex);
				flagKept.set(Thread.currentThread().isInterrupted());
			}
		});
		caller.start();
		assertThat(await(this.started)).isTrue();
		caller.interrupt();
		caller.join(5000);
		assertThat(caller.isAlive()).isFalse();
		assertThat(failure.get()).isInstanceOfSatisfying(TimedCallException.class, (ex) -> {
			assertThat(ex.reason()).isEqualTo(TimedCallException.Reason.INTERRUPTED);
			assertThat(ex.outcome()).isEqualTo(CallOutcome.CANCELLED);
		}).hasMessage("Call of tool 'open_page' was interrupted while waiting for the tool; the tool was cancelled");
		assertThat(flagKept).isTrue();
		assertThat(await(this.interrupted)).as("the tool's thread was interrupted").isTrue();
	}

	@Test
	void closingInterruptsRunningToolsAndRefusesNewCalls() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).build();
		ToolPipeline pipeline = pipeline(SLOW, blockingTool());
		Future<Object> running = this.callers.submit(() -> pipeline.call(call(SLOW)));
		assertThat(await(this.started)).isTrue();
		this.middleware.close();
		assertThat(await(this.interrupted)).isTrue();
		assertThat(running).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(InterruptedException.class);
		assertThatExceptionOfType(TimedCallException.class).isThrownBy(() -> pipeline.call(call(SLOW)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(TimedCallException.Reason.SHUT_DOWN))
			.withMessageContaining("shut down");
	}

	@Test
	void closingFailsCallsStillWaitingForAThread() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).maxThreads(1).queueCapacity(1).build();
		ToolPipeline blocking = pipeline(SLOW, blockingTool());
		this.callers.submit(() -> blocking.call(call(SLOW)));
		assertThat(await(this.started)).isTrue();
		AtomicBoolean secondRan = new AtomicBoolean();
		ToolPipeline other = pipeline(SLOW, (invocation) -> secondRan.getAndSet(true));
		AtomicReference<Thread> secondCaller = new AtomicReference<>();
		Future<Object> queued = this.callers.submit(() -> {
			secondCaller.set(Thread.currentThread());
			return other.call(call(SLOW));
		});
		// Only waiting for the result is a timed wait: once there, the call is in the
		// queue.
		while (secondCaller.get() == null || secondCaller.get().getState() != Thread.State.TIMED_WAITING) {
			Thread.onSpinWait();
		}
		this.middleware.close();
		assertThat(queued).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOfSatisfying(TimedCallException.class,
					(ex) -> assertThat(ex.reason()).isEqualTo(TimedCallException.Reason.SHUT_DOWN));
		assertThat(secondRan).isFalse();
	}

	@Test
	void theInvocationReachesTheInnerLayersUnchanged() throws Exception {
		AtomicReference<ToolInvocation> seen = new AtomicReference<>();
		this.middleware.close();
		this.middleware = browserTimeout(Duration.ofMinutes(1)).build();
		ToolInvocation invocation = call(SLOW);
		pipeline(SLOW, (inner) -> {
			seen.set(inner);
			return null;
		}).call(invocation);
		assertThat(seen.get()).isSameAs(invocation);
	}

	@Test
	void observersSeeATimeoutDecidedByTheTimeoutLayer() throws Exception {
		this.middleware.close();
		this.middleware = browserTimeout(SHORT).build();
		AtomicReference<ToolCallRecord> record = new AtomicReference<>();
		ToolCallObserver observer = new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord callRecord) {
				record.set(callRecord);
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		};
		ToolPipeline pipeline = ToolPipeline.builder(SLOW, blockingTool())
			.middleware(this.middleware)
			.observers(ToolCallObservers.builder().observers(java.util.List.of(observer)).build())
			.build();
		assertThatExceptionOfType(ToolTimeoutException.class).isThrownBy(() -> pipeline.call(call(SLOW)));
		assertThat(record.get().outcome()).isEqualTo(CallOutcome.TIMED_OUT);
		assertThat(record.get().decidedBy()).isEqualTo("timeout");
	}

	@Test
	void hasTheTimeoutOrderByDefaultAndACustomOne() {
		assertThat(this.middleware.order()).isEqualTo(BuiltInOrder.TIMEOUT);
		assertThat(this.middleware.name()).isEqualTo("timeout");
		try (TimeoutMiddleware custom = TimeoutMiddleware.builder().order(42).build()) {
			assertThat(custom.order()).isEqualTo(42);
		}
	}

	@Test
	void rejectsInvalidSettingsWithClearMessages() {
		assertThatIllegalArgumentException().isThrownBy(() -> TimeoutPolicy.of(Duration.ZERO))
			.withMessageContaining("Timeout must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> TimeoutMiddleware.builder().maxThreads(0))
			.withMessage("maxThreads must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> TimeoutMiddleware.builder().queueCapacity(-1))
			.withMessage("queueCapacity must not be negative, was -1");
	}

	private ToolHandler blockingTool() {
		return (invocation) -> {
			this.started.countDown();
			try {
				this.release.await();
				return "released";
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				throw ex;
			}
		};
	}

	private ToolPipeline pipeline(ToolDescriptor tool, ToolHandler handler) {
		return ToolPipeline.builder(tool, handler).middleware(this.middleware).build();
	}

	private static TimeoutMiddleware.Builder browserTimeout(Duration timeout) {
		return TimeoutMiddleware.builder()
			.policies((tool) -> tool.hasTag("browser") ? TimeoutPolicy.of(timeout) : null);
	}

	private static ToolInvocation call(ToolDescriptor tool) {
		return ToolInvocation.builder(tool).argument("url", "https://example.org").sessionId("s1").build();
	}

	private static boolean await(CountDownLatch latch) {
		try {
			return latch.await(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
