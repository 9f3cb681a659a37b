package dev.agentmiddleware.chain;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.TransientToolException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;

/**
 * Cancelling a call through {@link CallCancellation}: a retry makes no further attempt, a
 * timed attempt stops being waited for, the tool's thread is interrupted only where the
 * tool allows it, and the call ends as {@code cancelled} for observers.
 */
class CallCancellationTests {

	private static final ToolDescriptor FETCH = ToolDescriptor.builder("fetch").idempotent(true).build();

	private static final ToolDescriptor CRAWL = ToolDescriptor.builder("crawl").tags("interruptible").build();

	private static final ToolDescriptor EXPORT = ToolDescriptor.builder("export").build();

	private final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	private final CountDownLatch toolStarted = new CountDownLatch(1);

	private final CountDownLatch releaseTool = new CountDownLatch(1);

	private final AtomicBoolean toolInterrupted = new AtomicBoolean();

	private final CountDownLatch interrupted = new CountDownLatch(1);

	private final TimeoutMiddleware timeout = TimeoutMiddleware.builder()
		.policies((tool) -> TimeoutPolicy.of(Duration.ofMinutes(5)))
		.build();

	@AfterEach
	void stop() {
		this.releaseTool.countDown();
		this.callers.shutdownNow();
		this.timeout.close();
	}

	@Test
	void retryMakesNoFurtherAttemptOnceTheCallIsCancelledDuringItsBackoff() {
		AtomicInteger attempts = new AtomicInteger();
		CallCancellation cancellation = new CallCancellation();
		TransientToolException busy = new TransientToolException("busy");
		RetryMiddleware retry = RetryMiddleware.builder()
			.policies((tool) -> RetryPolicy.defaults().withJitter(0).withMaxAttempts(5))
			.sleeper((duration) -> cancellation.cancel("the user stopped the agent"))
			.build();
		ToolPipeline pipeline = observed(FETCH, (invocation) -> {
			attempts.incrementAndGet();
			throw busy;
		}, retry);

		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(FETCH).build(), cancellation))
			.satisfies((ex) -> {
				assertThat(ex.decidedBy()).isEqualTo("retry");
				assertThat(ex.reason()).isEqualTo("the user stopped the agent");
				assertThat(ex.getCause()).isSameAs(busy);
			});
		assertThat(attempts).hasValue(1);
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	@Test
	void retryNeverRetriesACancelledAttemptWhateverThePolicyRetries() {
		AtomicInteger attempts = new AtomicInteger();
		List<Duration> waits = new CopyOnWriteArrayList<>();
		RetryMiddleware retry = RetryMiddleware.builder()
			.policies((tool) -> RetryPolicy.defaults()
				.withJitter(0)
				.withMaxAttempts(5)
				.withRetryOn(List.of(Throwable.class)))
			.sleeper(waits::add)
			.build();
		ToolPipeline pipeline = observed(FETCH, (invocation) -> {
			attempts.incrementAndGet();
			throw new ToolCancelledException("fetch", "inner", null, null);
		}, retry);
		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(FETCH).build()));
		assertThat(attempts).hasValue(1);
		assertThat(waits).isEmpty();
	}

	@Test
	void retryWithTheDefaultSleeperEndsItsBackoffWhenTheCallIsCancelled() throws Exception {
		AtomicInteger attempts = new AtomicInteger();
		CallCancellation cancellation = new CallCancellation();
		RetryMiddleware retry = RetryMiddleware.builder()
			.policies((tool) -> RetryPolicy.defaults()
				.withJitter(0)
				.withMaxAttempts(5)
				.withBackoff(Duration.ofDays(1), 2.0, Duration.ofDays(1)))
			.build();
		ToolPipeline pipeline = observed(FETCH, (invocation) -> {
			attempts.incrementAndGet();
			this.toolStarted.countDown();
			throw new TransientToolException("busy");
		}, retry);
		Future<Object> call = this.callers
			.submit(() -> pipeline.call(ToolInvocation.builder(FETCH).build(), cancellation));
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

		cancellation.cancel(null);

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(ToolCancelledException.class);
		assertThat(attempts).hasValue(1);
	}

	@Test
	void timedCallStopsWaitingForItsAttemptAndLeavesAToolThatDoesNotAllowItUninterrupted() throws Exception {
		ToolPipeline pipeline = observed(EXPORT, blockingTool(), this.timeout);
		CallCancellation cancellation = new CallCancellation();
		Future<Object> call = this.callers
			.submit(() -> pipeline.call(ToolInvocation.builder(EXPORT).build(), cancellation));
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

		cancellation.cancel("client went away");

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(ToolCancelledException.class,
					(ex) -> assertThat(ex.decidedBy()).isEqualTo("timeout"));
		assertThat(this.toolInterrupted).isFalse();
		assertThat(this.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED);
			assertThat(record.decidedBy()).isEqualTo("timeout");
		});
	}

	@Test
	void saysWhetherTheToolStartedBeforeTheCallWasCancelled() throws Exception {
		CallCancellation cancelledEarly = new CallCancellation();
		cancelledEarly.cancel("the server is stopping");
		AtomicBoolean ran = new AtomicBoolean();
		ToolPipeline pipeline = observed(EXPORT, (invocation) -> ran.getAndSet(true), this.timeout);
		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(EXPORT).build(), cancelledEarly));
		assertThat(cancelledEarly.toolStarted()).isFalse();
		assertThat(ran).isFalse();

		CallCancellation cancelledLate = new CallCancellation();
		ToolPipeline running = observed(EXPORT, blockingTool(), this.timeout);
		Future<Object> call = this.callers
			.submit(() -> running.call(ToolInvocation.builder(EXPORT).build(), cancelledLate));
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();
		cancelledLate.cancel("the server is stopping");
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS));
		assertThat(cancelledLate.toolStarted()).isTrue();
	}

	@Test
	void timedAttemptOfAnInterruptibleToolIsInterrupted() throws Exception {
		ToolPipeline pipeline = observed(CRAWL, blockingTool(), this.timeout);
		CallCancellation cancellation = new CallCancellation();
		Future<Object> call = this.callers
			.submit(() -> pipeline.call(ToolInvocation.builder(CRAWL).build(), cancellation));
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

		cancellation.cancel(null);

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(ToolCancelledException.class);
		assertThat(awaitInterrupted()).as("the crawl's thread was interrupted").isTrue();
	}

	@Test
	void interruptibleToolOnTheCallersThreadIsInterruptedAndTheInterruptDoesNotOutliveIt() throws Exception {
		ToolPipeline pipeline = observed(CRAWL, blockingTool());
		CallCancellation cancellation = new CallCancellation();
		AtomicBoolean interruptedAfterwards = new AtomicBoolean(true);
		Future<Object> call = this.callers.submit(() -> {
			try {
				return pipeline.call(ToolInvocation.builder(CRAWL).build(), cancellation);
			}
			finally {
				interruptedAfterwards.set(Thread.currentThread().isInterrupted());
			}
		});
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

		cancellation.cancel(null);

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(ToolCancelledException.class,
					(ex) -> assertThat(ex.getCause()).isInstanceOf(InterruptedException.class));
		assertThat(this.toolInterrupted).isTrue();
		assertThat(interruptedAfterwards).as("the caller's thread keeps no interrupt").isFalse();
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	@Test
	void cancelledFutureOfAnAsyncCallCancelsTheCall() throws Exception {
		ToolPipeline pipeline = observed(CRAWL, blockingTool());
		CompletableFuture<Object> crawl = pipeline.callAsync(ToolInvocation.builder(CRAWL).build(), this.callers);
		assertThat(this.toolStarted.await(5, TimeUnit.SECONDS)).isTrue();

		assertThat(crawl.cancel(false)).isTrue();

		assertThat(awaitInterrupted()).isTrue();
		assertThat(crawl).isCancelled();
		this.callers.shutdown();
		assertThat(this.callers.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	@Test
	void callThatReturnsBeforeItIsCancelledSucceeds() throws Exception {
		CallCancellation cancellation = new CallCancellation();
		ToolPipeline pipeline = observed(EXPORT, (invocation) -> "exported");
		assertThat(pipeline.call(ToolInvocation.builder(EXPORT).build(), cancellation)).isEqualTo("exported");
		assertThat(cancellation.cancel("too late")).isTrue();
		assertThat(cancellation.cancel("again")).isFalse();
		assertThat(cancellation.reason()).isEqualTo("too late");
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED));
	}

	@Test
	void cancelledCallStartsNeitherTheToolOfABarePipelineNorThatOfAnObservedOne() {
		AtomicInteger runs = new AtomicInteger();
		ToolHandler export = (invocation) -> runs.incrementAndGet();
		CallCancellation cancellation = new CallCancellation();
		cancellation.cancel("the user left");

		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> ToolPipeline.builder(EXPORT, export)
				.build()
				.call(ToolInvocation.builder(EXPORT).build(), cancellation))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo("the user left"));
		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> observed(EXPORT, export).call(ToolInvocation.builder(EXPORT).build(), cancellation));
		assertThat(runs).hasValue(0);
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	@Test
	void failureOfAToolAfterItsCallWasCancelledIsReportedAsTheCancellation() {
		CallCancellation cancellation = new CallCancellation();
		IllegalStateException broken = new IllegalStateException("connection closed");
		ToolPipeline pipeline = observed(EXPORT, (invocation) -> {
			cancellation.cancel("the user left");
			throw broken;
		});

		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(EXPORT).build(), cancellation))
			.satisfies((ex) -> assertThat(ex.getCause()).isSameAs(broken));
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	@Test
	void pipelineEnteredFromTheToolOfACancelledCallIsCancelledWithIt() throws Exception {
		AtomicInteger innerRuns = new AtomicInteger();
		ToolDescriptor inner = ToolDescriptor.builder("inner").build();
		ToolPipeline innerPipeline = ToolPipeline.builder(inner, (invocation) -> innerRuns.incrementAndGet())
			.middleware(ToolMiddleware.named("pass-through", (tool, next) -> next::handle))
			.build();
		CallCancellation cancellation = new CallCancellation();
		ToolPipeline outer = observed(EXPORT, (invocation) -> {
			cancellation.cancel("the user left");
			try {
				return innerPipeline.call(ToolInvocation.builder(inner).build());
			}
			catch (ToolCancelledException ex) {
				return ex.outcome();
			}
		});

		assertThat(outer.call(ToolInvocation.builder(EXPORT).build(), cancellation)).isEqualTo(CallOutcome.CANCELLED);
		assertThat(innerRuns).hasValue(0);
	}

	@Test
	void outsideACancellableCallNothingIsEverCancelled() {
		CallCancellation none = ToolCall.current().cancellation();
		assertThat(none.cancel("no")).isFalse();
		assertThat(none.isCancelled()).isFalse();
		AtomicBoolean ran = new AtomicBoolean();
		none.onCancel(() -> ran.set(true)).close();
		assertThat(ran).isFalse();
	}

	@Test
	void toolOfACancelledCallDoesNotStartOnTheThreadTheCallWasCarriedToWhereNothingReadsOutcomes() {
		AtomicInteger runs = new AtomicInteger();
		CallCancellation cancellation = new CallCancellation();
		cancellation.cancel("the user left");
		ToolPipeline pipeline = ToolPipeline.builder(EXPORT, (invocation) -> runs.incrementAndGet())
			.middleware(elsewhere())
			.build();

		assertThatExceptionOfType(ToolCancelledException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(EXPORT).build(), cancellation))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo("the user left"));
		assertThat(runs).hasValue(0);
	}

	@Test
	void callCarriesTheCancellationItsCallerGaveToEveryThreadItIsCarriedTo() throws Exception {
		CallCancellation cancellation = new CallCancellation();
		List<CallCancellation> seen = new CopyOnWriteArrayList<>();
		ToolPipeline pipeline = ToolPipeline.builder(EXPORT, (invocation) -> {
			seen.add(ToolCall.current().cancellation());
			return "exported";
		}).middleware(ToolMiddleware.named("before", (tool, next) -> (invocation) -> {
			seen.add(ToolCall.current().cancellation());
			return next.handle(invocation);
		})).middleware(elsewhere()).build();

		assertThat(pipeline.call(ToolInvocation.builder(EXPORT).build(), cancellation)).isEqualTo("exported");
		assertThat(seen).hasSize(2).allSatisfy((each) -> assertThat(each).isSameAs(cancellation));
		assertThat(ToolCall.current().cancellation()).isNotSameAs(cancellation);
	}

	// Runs the rest of the chain on another thread, carrying the call with the one wrap
	private ToolMiddleware elsewhere() {
		return ToolMiddleware.named("elsewhere", (tool, next) -> (invocation) -> {
			try {
				return this.callers.submit(ToolCall.current().wrap(() -> next.handle(invocation))).get();
			}
			catch (ExecutionException ex) {
				throw (Exception) ex.getCause();
			}
		});
	}

	private ToolHandler blockingTool() {
		return (invocation) -> {
			this.toolStarted.countDown();
			try {
				this.releaseTool.await();
				return "done";
			}
			catch (InterruptedException ex) {
				this.toolInterrupted.set(true);
				this.interrupted.countDown();
				throw ex;
			}
		};
	}

	private boolean awaitInterrupted() throws InterruptedException {
		return this.interrupted.await(5, TimeUnit.SECONDS);
	}

	private ToolPipeline observed(ToolDescriptor tool, ToolHandler handler, ToolMiddleware... middleware) {
		ToolCallObservers observers = ToolCallObservers.builder().observer(new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				CallCancellationTests.this.records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		}).build();
		return ToolPipeline.builder(tool, handler).middleware(List.of(middleware)).observers(observers).build();
	}

}
