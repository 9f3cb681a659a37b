package dev.agentmiddleware.callrecord;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.chain.ToolInterceptor;
import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ToolCallObserversTests {

	private static final Instant NOW = Instant.parse("2025-03-01T10:15:30Z");

	private static final ToolDescriptor ECHO = ToolDescriptor.builder("echo").build();

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final Recorder recorder = new Recorder(true);

	private final List<ToolCallObservers> toClose = new ArrayList<>();

	private final AtomicInteger toolRuns = new AtomicInteger();

	private final ToolHandler tool = (invocation) -> {
		this.toolRuns.incrementAndGet();
		return "echo:" + invocation.argument("text");
	};

	@AfterEach
	void closeObservers() {
		this.toClose.forEach(ToolCallObservers::close);
	}

	@Test
	void successfulCallProducesOneRecordWithResultDurationAndStartFromTheClock() throws Exception {
		ToolPipeline pipeline = pipeline(observers(this.recorder));
		ToolInvocation invocation = call();
		assertThat(pipeline.call(invocation)).isEqualTo("echo:hi");
		assertThat(this.recorder.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
			assertThat(record.result()).isEqualTo("echo:hi");
			assertThat(record.error()).isNull();
			assertThat(record.duration()).isGreaterThanOrEqualTo(Duration.ZERO);
			assertThat(record.startedAt()).isEqualTo(NOW);
			assertThat(record.decidedBy()).isNull();
			assertThat(record.invocation().callId()).isEqualTo(invocation.callId());
		});
		pipeline.call(call());
		assertThat(this.recorder.records).hasSize(2);
	}

	@Test
	void failedCallProducesARecordWithTheToolsError() {
		IOException failure = new IOException("disk full");
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, (invocation) -> {
			throw failure;
		}).observers(observers(this.recorder)).build();
		assertThatThrownBy(() -> pipeline.call(call())).isSameAs(failure);
		assertThat(this.recorder.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.FAILED);
			assertThat(record.error()).isSameAs(failure);
			assertThat(record.result()).isNull();
			assertThat(record.duration()).isGreaterThanOrEqualTo(Duration.ZERO);
			assertThat(record.startedAt()).isEqualTo(NOW);
		});
	}

	@Test
	void denialIsRecordedAsDeniedByTheDenyingMiddleware() {
		ToolMiddleware policy = ToolMiddleware.named("policy", (descriptor, next) -> (invocation) -> {
			throw new ToolDeniedException(invocation.toolName(), "policy", "not on the allow list");
		});
		ToolPipeline pipeline = pipeline(observers(this.recorder), policy);
		assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> pipeline.call(call()));
		assertOnlyRecord(CallOutcome.DENIED, "policy");
		assertThat(this.recorder.records.get(0).error()).isInstanceOf(ToolDeniedException.class);
		assertThat(this.toolRuns).hasValue(0);
	}

	@Test
	void rateLimitIsRecordedAsRateLimited() {
		ToolMiddleware rateLimit = ToolMiddleware.named("rate-limit", (descriptor, next) -> (invocation) -> {
			throw new ToolRateLimitedException(invocation.toolName(), "rate-limit", "1 call per 1s",
					Duration.ofSeconds(1));
		});
		ToolPipeline pipeline = pipeline(observers(this.recorder), rateLimit);
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> pipeline.call(call()));
		assertOnlyRecord(CallOutcome.RATE_LIMITED, "rate-limit");
	}

	@Test
	void timeoutIsRecordedAsTimedOut() {
		ToolMiddleware timeout = ToolMiddleware.named("timeout", (descriptor, next) -> (invocation) -> {
			throw new ToolTimeoutException(invocation.toolName(), "timeout", Duration.ofSeconds(30));
		});
		ToolPipeline pipeline = pipeline(observers(this.recorder), timeout);
		assertThatExceptionOfType(ToolTimeoutException.class).isThrownBy(() -> pipeline.call(call()));
		assertOnlyRecord(CallOutcome.TIMED_OUT, "timeout");
	}

	@Test
	void interceptorSkipIsRecordedAsShortCircuitedByThatInterceptor() throws Exception {
		ToolInterceptor canned = new ToolInterceptor() {
			@Override
			public BeforeDecision beforeInvocation(ToolInvocation invocation) {
				return BeforeDecision.skip("canned");
			}

			@Override
			public String name() {
				return "canned";
			}
		};
		ToolPipeline pipeline = pipeline(observers(this.recorder), canned.asMiddleware());
		assertThat(pipeline.call(call())).isEqualTo("canned");
		assertOnlyRecord(CallOutcome.SHORT_CIRCUITED, "canned");
		assertThat(this.recorder.records.get(0).result()).isEqualTo("canned");
	}

	@Test
	void interceptorSkipWithAnOutcomeIsRecordedWithThatOutcome() throws Exception {
		ToolInterceptor cache = new ToolInterceptor() {
			@Override
			public BeforeDecision beforeInvocation(ToolInvocation invocation) {
				return BeforeDecision.skip("cached value", CallOutcome.CACHED);
			}

			@Override
			public String name() {
				return "cache";
			}
		};
		ToolPipeline pipeline = pipeline(observers(this.recorder), cache.asMiddleware());
		assertThat(pipeline.call(call())).isEqualTo("cached value");
		assertOnlyRecord(CallOutcome.CACHED, "cache");
	}

	@Test
	void middlewareThatAnswersWithoutProceedingOrReportingIsRecordedAsShortCircuited() throws Exception {
		ToolMiddleware answer = ToolMiddleware.named("answer", (descriptor, next) -> (invocation) -> "canned");
		ToolPipeline pipeline = pipeline(observers(this.recorder), answer);
		assertThat(pipeline.call(call())).isEqualTo("canned");
		assertOnlyRecord(CallOutcome.SHORT_CIRCUITED, null);
	}

	@Test
	void middlewareThatReportsItsDecisionIsRecordedWithIt() throws Exception {
		ToolMiddleware cache = ToolMiddleware.named("cache", (descriptor, next) -> (invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "cached value";
		});
		ToolPipeline pipeline = pipeline(observers(this.recorder), cache);
		assertThat(pipeline.call(call())).isEqualTo("cached value");
		assertOnlyRecord(CallOutcome.CACHED, "cache");
	}

	@Test
	void throwingSynchronousObserverNeverFailsTheCall() throws Exception {
		ToolCallObserver throwing = synchronous((record) -> {
			throw new IllegalStateException("observer bug");
		});
		ToolCallObservers observers = observers(throwing, this.recorder);
		ToolPipeline pipeline = pipeline(observers);
		assertThat(pipeline.call(call())).isEqualTo("echo:hi");
		assertThat(observers.observerFailures()).isEqualTo(1);
		assertThat(this.recorder.records).hasSize(1);
	}

	@Test
	void synchronousObserverThrowingAnErrorNeverFailsTheCall() throws Exception {
		ToolCallObserver throwing = synchronous((record) -> {
			throw new AssertionError("observer bug");
		});
		ToolCallObservers observers = observers(throwing, this.recorder);
		assertThat(pipeline(observers).call(call())).isEqualTo("echo:hi");
		assertThat(observers.observerFailures()).isEqualTo(1);
		assertThat(this.recorder.records).hasSize(1);
	}

	@Test
	void throwingAsynchronousObserverNeverFailsTheCallNorStopsDelivery() throws Exception {
		Recorder later = new Recorder(false);
		AtomicInteger calls = new AtomicInteger();
		ToolCallObserver throwing = (record) -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("observer bug");
			}
			throw new AssertionError("observer bug");
		};
		ToolCallObservers observers = observers(throwing, later);
		ToolPipeline pipeline = pipeline(observers);
		for (int i = 0; i < 3; i++) {
			assertThat(pipeline.call(call())).isEqualTo("echo:hi");
		}
		observers.close();
		assertThat(observers.observerFailures()).isEqualTo(3);
		assertThat(later.records).hasSize(3);
	}

	@Test
	void blockedAsynchronousObserverNeverDelaysTheCall() throws Exception {
		Blocking blocked = new Blocking();
		ToolPipeline pipeline = pipeline(observers(blocked));
		assertThat(pipeline.call(call())).isEqualTo("echo:hi");
		assertThat(blocked.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		// the observer now holds the first record and waits; further calls must not wait
		// with it
		assertTimeoutPreemptively(WAIT, () -> pipeline.call(call()));
		assertThat(blocked.release.getCount()).isEqualTo(1);
		blocked.release.countDown();
	}

	@Test
	void recordsThatDoNotFitTheQueueAreDroppedAndCounted() throws Exception {
		Blocking blocked = new Blocking();
		ToolCallObservers observers = ToolCallObservers.builder()
			.observer(blocked)
			.queueCapacity(1)
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.build();
		this.toClose.add(observers);
		ToolPipeline pipeline = pipeline(observers);
		ToolInvocation first = call();
		pipeline.call(first);
		assertThat(blocked.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		ToolInvocation second = call();
		pipeline.call(second);
		pipeline.call(call());
		pipeline.call(call());
		assertThat(observers.droppedRecords()).isEqualTo(2);
		assertThat(this.toolRuns).hasValue(4);
		blocked.release.countDown();
		observers.close();
		assertThat(blocked.records).extracting((record) -> record.invocation().callId())
			.containsExactly(first.callId(), second.callId());
	}

	@Test
	void synchronousObserverSeesTheRecordOnTheCallersThreadBeforeTheCallReturns() throws Exception {
		AtomicReference<Thread> deliveredOn = new AtomicReference<>();
		ToolCallObserver threadRecording = synchronous((record) -> deliveredOn.set(Thread.currentThread()));
		ToolPipeline pipeline = pipeline(observers(threadRecording, this.recorder));
		pipeline.call(call());
		assertThat(this.recorder.records).hasSize(1);
		assertThat(deliveredOn).hasValue(Thread.currentThread());
	}

	@Test
	void closeDeliversQueuedRecordsAndDropsLaterOnes() throws Exception {
		Blocking blocked = new Blocking();
		ToolCallObservers observers = observers(blocked);
		ToolPipeline pipeline = pipeline(observers);
		for (int i = 0; i < 3; i++) {
			pipeline.call(call());
		}
		assertThat(blocked.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		blocked.release.countDown();
		observers.close();
		assertThat(blocked.records).hasSize(3);
		assertThat(observers.droppedRecords()).isZero();
		pipeline.call(call());
		assertThat(observers.droppedRecords()).isEqualTo(1);
		assertThat(blocked.records).hasSize(3);
	}

	@Test
	void closeReturnsEvenWhenAnObserverIsStuckAndTheQueueIsFull() throws Exception {
		Blocking stuck = new Blocking();
		ToolCallObservers observers = ToolCallObservers.builder().observer(stuck).queueCapacity(1).build();
		ToolPipeline pipeline = pipeline(observers);
		pipeline.call(call());
		assertThat(stuck.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		pipeline.call(call());
		assertTimeoutPreemptively(Duration.ofSeconds(30), observers::close);
	}

	@Test
	void emptyObserversAddNoTier() throws Exception {
		ToolMiddleware passThrough = ToolMiddleware.named("pass-through", (descriptor, next) -> next::handle);
		List<ToolCall> calls = new ArrayList<>();
		ToolHandler callRecording = (invocation) -> {
			calls.add(ToolCall.current());
			return "done";
		};
		ToolCallObservers empty = ToolCallObservers.builder().build();
		assertThat(empty.isEmpty()).isTrue();
		ToolPipeline unobserved = ToolPipeline.builder(ECHO, callRecording).middleware(passThrough).build();
		ToolPipeline withEmpty = ToolPipeline.builder(ECHO, callRecording)
			.middleware(passThrough)
			.observers(empty)
			.build();
		withEmpty.call(call());
		assertThat(calls).singleElement().satisfies((call) -> assertThat(call.isRecording()).isFalse());
		assertThat(withEmpty.layers()).isEqualTo(unobserved.layers()).containsExactly("pass-through", "echo");
	}

	@Test
	void observedToolRunsInARecordingCallButTheTierIsNotALayer() throws Exception {
		List<ToolCall> calls = new ArrayList<>();
		ToolPipeline observed = ToolPipeline.builder(ECHO, (invocation) -> {
			calls.add(ToolCall.current());
			return "done";
		}).observers(observers(this.recorder)).build();
		observed.call(call());
		assertThat(calls).singleElement().satisfies((call) -> assertThat(call.toolExecuted()).isTrue());
		assertThat(observed.layers()).containsExactly("echo");
	}

	private void assertOnlyRecord(CallOutcome outcome, String decidedBy) {
		assertThat(this.recorder.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(outcome);
			assertThat(record.decidedBy()).isEqualTo(decidedBy);
			assertThat(record.startedAt()).isEqualTo(NOW);
			assertThat(record.duration()).isGreaterThanOrEqualTo(Duration.ZERO);
		});
	}

	private ToolCallObservers observers(ToolCallObserver... observers) {
		ToolCallObservers built = ToolCallObservers.builder()
			.observers(List.of(observers))
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.build();
		this.toClose.add(built);
		return built;
	}

	private ToolPipeline pipeline(ToolCallObservers observers, ToolMiddleware... middleware) {
		return ToolPipeline.builder(ECHO, this.tool).middleware(List.of(middleware)).observers(observers).build();
	}

	private static ToolInvocation call() {
		return ToolInvocation.builder(ECHO).argument("text", "hi").build();
	}

	private static ToolCallObserver synchronous(ToolCallObserver observer) {
		return new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				observer.onToolCall(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		};
	}

	private static final class Recorder implements ToolCallObserver {

		final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

		private final boolean synchronous;

		Recorder(boolean synchronous) {
			this.synchronous = synchronous;
		}

		@Override
		public void onToolCall(ToolCallRecord record) {
			this.records.add(record);
		}

		@Override
		public boolean synchronous() {
			return this.synchronous;
		}

	}

	/**
	 * An asynchronous observer that holds the first record until released.
	 */
	private static final class Blocking implements ToolCallObserver {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

		@Override
		public void onToolCall(ToolCallRecord record) {
			this.entered.countDown();
			try {
				this.release.await();
				this.records.add(record);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
