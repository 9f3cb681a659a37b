package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A call cancelled while it waits for approval: the request is withdrawn (gone from the
 * pending requests, audited {@code cancelled}, no longer decidable), the tool never runs,
 * and the call ends as {@code cancelled} for observers and metrics.
 */
class ApprovalCancellationTests {

	private static final ToolDescriptor DELETE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

	private final InMemoryApprovalStore store = new InMemoryApprovalStore();

	private final ApprovalMiddlewareTests.CapturingProvider provider = new ApprovalMiddlewareTests.CapturingProvider();

	private final AtomicInteger runs = new AtomicInteger();

	private final List<ApprovalAuditRecord> audited = new CopyOnWriteArrayList<>();

	private final List<ToolCallRecord> records = new CopyOnWriteArrayList<>();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	private ToolPipeline pipeline() {
		ApprovalMiddleware approval = ApprovalMiddleware.builder()
			.clock(this.clock)
			.store(this.store)
			.provider(new CompositeApprovalProvider(List.of(this.provider)))
			.auditListener(this.audited::add)
			.build();
		ObservationMiddleware observation = ObservationMiddleware.builder()
			.registry(TestObservationRegistry.create())
			.meterRegistry(this.meters)
			.build();
		ToolCallObservers observers = ToolCallObservers.builder().observer(new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				ApprovalCancellationTests.this.records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		}).build();
		return ToolPipeline.builder(DELETE, (invocation) -> {
			this.runs.incrementAndGet();
			return "deleted";
		}).middleware(List.of(observation, approval)).observers(observers).build();
	}

	private static ToolInvocation call() {
		return ToolInvocation.builder(DELETE).argument("path", "notes.txt").sessionId("s1").principal("bob").build();
	}

	@Test
	void cancelledWaitWithdrawsItsRequestAuditsItCancelledAndNeverRunsTheTool() throws Exception {
		ToolPipeline pipeline = pipeline();
		CallCancellation cancellation = new CallCancellation();
		Future<Object> waiting = this.callers.submit(() -> pipeline.call(call(), cancellation));
		ApprovalRequest request = this.provider.next();
		assertThat(this.store.pending(this.clock.instant())).containsExactly(request);

		assertThat(cancellation.cancel("the client cancelled the request")).isTrue();

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOfSatisfying(ToolCancelledException.class, (ex) -> {
				assertThat(ex.outcome()).isEqualTo(CallOutcome.CANCELLED);
				assertThat(ex.decidedBy()).isEqualTo("approval");
				assertThat(ex.getMessage()).isEqualTo(
						"Call of tool 'delete_file' was cancelled by its caller: the client cancelled the request");
			});
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.CANCELLED);
			assertThat(record.outcome().tagValue()).isEqualTo("cancelled");
			assertThat(record.reason()).isEqualTo("the client cancelled the request");
		});
		assertThat(this.audited).extracting(ApprovalAuditRecord::outcome).containsExactly(ApprovalOutcome.CANCELLED);
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.ALREADY_DECIDED);
		assertThat(this.runs).hasValue(0);
		assertThat(this.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED);
			assertThat(record.decidedBy()).isEqualTo("approval");
		});
		assertThat(this.meters.get("agent.tool.call").tag("agent.tool.outcome", "cancelled").timer().count()).isOne();
	}

	@Test
	void cancellingTheFutureOfAnAsyncCallWithdrawsItsRequest() throws Exception {
		ToolPipeline pipeline = pipeline();
		CompletableFuture<Object> deletion = pipeline.callAsync(call(), this.callers);
		ApprovalRequest request = this.provider.next();

		assertThat(deletion.cancel(true)).isTrue();

		assertThat(awaitAudit()).satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.CANCELLED);
			assertThat(record.reason()).isEqualTo("the caller cancelled the call's future");
		});
		assertThat(deletion).isCancelled();
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void interruptingTheWaitingThreadCancelsTheCall() throws Exception {
		ToolPipeline pipeline = pipeline();
		Future<Object> waiting = this.callers.submit(() -> pipeline.call(call()));
		ApprovalRequest request = this.provider.next();

		waiting.cancel(true);

		assertThat(awaitAudit()).satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.CANCELLED);
			assertThat(record.reason()).isEqualTo("the waiting thread was interrupted");
		});
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void callCancelledBeforeItAsksAsksNobodyAndDoesNotRunTheTool() {
		ToolPipeline pipeline = pipeline();
		CallCancellation cancellation = new CallCancellation();
		cancellation.cancel(null);
		assertThatExceptionOfType(ToolCancelledException.class).isThrownBy(() -> pipeline.call(call(), cancellation))
			.withMessage("Call of tool 'delete_file' was cancelled by its caller: the caller cancelled the call");
		assertThat(this.provider.asked).hasValue(0);
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.audited).extracting(ApprovalAuditRecord::outcome).containsExactly(ApprovalOutcome.CANCELLED);
		assertThat(this.runs).hasValue(0);
		assertThat(this.records).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED));
	}

	private ApprovalAuditRecord awaitAudit() throws InterruptedException {
		this.callers.shutdown();
		assertThat(this.callers.awaitTermination(5, TimeUnit.SECONDS)).as("the cancelled call ends").isTrue();
		assertThat(this.audited).hasSize(1);
		return this.audited.get(0);
	}

}
