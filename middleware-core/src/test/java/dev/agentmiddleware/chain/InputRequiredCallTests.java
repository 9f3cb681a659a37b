package dev.agentmiddleware.chain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.audit.InMemoryAuditStore;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.learning.ErrorPatternStore;
import dev.agentmiddleware.learning.LearningObserver.LearningObserverAdapter;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A call whose tool needs its client's answer first ({@link ToolInputRequiredException},
 * MCP {@code 2026-07-28} {@code input_required}) is an outcome of its own through the
 * real chain: the exception passes every built-in untouched (not retried, not wrapped by
 * the timeout, not cached, not counted as an error) and the call is recorded as
 * {@code input_required}.
 */
class InputRequiredCallTests {

	private static final ToolDescriptor LOOKUP = ToolDescriptor.builder("lookup")
		.readOnly(true)
		.idempotent(true)
		.build();

	private final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final AtomicInteger runs = new AtomicInteger();

	private final ToolInputRequiredException signal = new ToolInputRequiredException("lookup", "elicitation");

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void retryDoesNotRetryItAndTheTimeoutDoesNotWrapIt() {
		List<Duration> waits = new CopyOnWriteArrayList<>();
		RetryMiddleware retry = RetryMiddleware.builder()
			.policies((tool) -> RetryPolicy.defaults()
				.withJitter(0)
				.withMaxAttempts(5)
				.withRetryOn(List.of(Throwable.class)))
			.sleeper(waits::add)
			.build();
		TimeoutMiddleware timeout = TimeoutMiddleware.builder()
			.policies((tool) -> TimeoutPolicy.of(Duration.ofMinutes(5)))
			.build();
		this.closeables.add(timeout::close);
		ToolPipeline pipeline = pipeline(askingTool(), retry, timeout);

		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(LOOKUP).build()))
			.isSameAs(this.signal);
		assertThat(this.runs).hasValue(1);
		assertThat(waits).isEmpty();
		assertThat(this.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.INPUT_REQUIRED);
			assertThat(record.outcome().tagValue()).isEqualTo("input_required");
		});
	}

	@Test
	void theCacheDoesNotStoreACallThatWaitsForItsClient() throws Exception {
		ToolPipeline pipeline = pipeline((invocation) -> {
			if (this.runs.incrementAndGet() == 1) {
				throw this.signal;
			}
			return "answered #" + this.runs.get();
		}, CacheMiddleware.builder().cache(ToolResultCache.builder().build()).build());

		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(LOOKUP).sessionId("s1").build()));
		assertThat(pipeline.call(ToolInvocation.builder(LOOKUP).sessionId("s1").build())).isEqualTo("answered #2");
		assertThat(pipeline.call(ToolInvocation.builder(LOOKUP).sessionId("s1").build()))
			.as("the answered call is cached")
			.isEqualTo("answered #2");
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void errorLearningDoesNotCountItAsAFailure() {
		ErrorPatternStore errors = ErrorPatternStore.builder().build();
		ToolPipeline pipeline = observed(askingTool(), LearningObserverAdapter.synchronous(List.of(errors)));

		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(LOOKUP).build()));
		assertThat(errors.topFailingTools(10)).isEmpty();
		assertThat(errors.size()).isZero();
	}

	@Test
	void observationAndAuditRecordTheOutcomeInputRequired() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		InMemoryAuditStore store = new InMemoryAuditStore(10);
		AuditTrail trail = AuditTrail.builder(store).flushInterval(Duration.ofMillis(10)).build();
		this.closeables.add(trail);
		ToolPipeline pipeline = observed(askingTool(), trail, ObservationMiddleware.of(registry));

		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(LOOKUP).build()));
		TestObservationRegistryAssert.assertThat(registry)
			.hasSingleObservationThat()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("agent.tool.outcome", "input_required");
		await().until(() -> !store.find(AuditQuery.all()).isEmpty());
		assertThat(store.find(AuditQuery.all())).singleElement()
			.extracting(AuditRecord::outcome)
			.isEqualTo(CallOutcome.INPUT_REQUIRED);
	}

	@Test
	void aClientRequestThatWaitsForTheRetryIsInputRequired() {
		assertThat(ClientRequest.Outcome.ofFailure(this.signal)).isEqualTo(ClientRequest.Outcome.INPUT_REQUIRED);
		assertThat(CallOutcome.ofFailure(this.signal)).isEqualTo(CallOutcome.INPUT_REQUIRED);
		assertThat(this.signal.decidedBy()).isNull();
		assertThat(this.signal.getStackTrace()).as("an expected outcome, not a fault").isEmpty();
	}

	private ToolHandler askingTool() {
		return (invocation) -> {
			this.runs.incrementAndGet();
			throw this.signal;
		};
	}

	private ToolPipeline pipeline(ToolHandler tool, ToolMiddleware... middleware) {
		return observed(tool, null, middleware);
	}

	private ToolPipeline observed(ToolHandler tool, ToolCallObserver observer, ToolMiddleware... middleware) {
		ToolCallObservers.Builder builder = ToolCallObservers.builder().observer(new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord record) {
				InputRequiredCallTests.this.records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		});
		if (observer != null) {
			builder.observer(observer);
		}
		ToolCallObservers observers = builder.build();
		this.closeables.add(0, observers);
		return ToolPipeline.builder(LOOKUP, tool).middleware(List.of(middleware)).observers(observers).build();
	}

}
