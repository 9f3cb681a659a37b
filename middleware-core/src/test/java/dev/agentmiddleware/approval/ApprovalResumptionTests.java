package dev.agentmiddleware.approval;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalMiddlewareTests.CapturingProvider;
import dev.agentmiddleware.approval.ApprovalMiddlewareTests.FixedProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A call served in rounds ({@link CallResumption}, MCP {@code 2026-07-28}
 * {@code input_required}): its approval request is carried from one round to the retry, a
 * round waits at most its round time, a provider that asks the client ends the round, and
 * one request has one decision and one audit record however many rounds it takes.
 */
class ApprovalResumptionTests {

	private static final ToolDescriptor DELETE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	private static final Duration ROUND = Duration.ofMillis(150);

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

	private final InMemoryApprovalStore store = new InMemoryApprovalStore();

	private final CapturingProvider queue = new CapturingProvider();

	private final AtomicInteger runs = new AtomicInteger();

	private final List<ApprovalAuditRecord> audited = new CopyOnWriteArrayList<>();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	private ToolPipeline pipeline(ApprovalProvider provider) {
		ApprovalMiddleware approval = ApprovalMiddleware.builder()
			.clock(this.clock)
			.store(this.store)
			.provider(new CompositeApprovalProvider(List.of(provider)))
			.auditListener(this.audited::add)
			.build();
		return ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> {
			this.runs.incrementAndGet();
			return "deleted " + invocation.argument("path");
		}), approval);
	}

	private static ToolInvocation call(String path, String principal, CallResumption resumption) {
		return ToolInvocation.builder(DELETE)
			.argument("path", path)
			.principal(principal)
			.attribute(CallResumption.ATTRIBUTE, resumption)
			.build();
	}

	private static CallResumption firstRound() {
		return new CallResumption(Map.of(), ROUND);
	}

	private static CallResumption retryOf(CallResumption round) {
		return new CallResumption(round.toCarry(), ROUND);
	}

	@Test
	void aRoundThatEndsBeforeTheDecisionAnswersInputRequiredAndLeavesItsRequestPendingAndUnaudited() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round)))
			.satisfies((ex) -> assertThat(ex.outcome()).isEqualTo(CallOutcome.INPUT_REQUIRED));
		ApprovalRequest request = this.queue.next();
		assertThat(this.store.pending(this.clock.instant())).containsExactly(request);
		assertThat(round.toCarry()).containsExactly(Map.entry(ApprovalMiddleware.CARRIED_REQUEST, request.id()));
		assertThat(this.store.auditTrail(10)).isEmpty();
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void theRetryContinuesWithTheCarriedRequestDecidedBetweenRoundsAndRecordsOneDecision() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest request = this.queue.next();
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.DECIDED);

		assertThat(pipeline.call(call("notes.txt", "bob", retryOf(round1)))).isEqualTo("deleted notes.txt");

		assertThat(this.runs).hasValue(1);
		assertThat(this.queue.asked).as("a decided request is not asked about again").hasValue(1);
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
			assertThat(record.decidedBy()).isEqualTo("alice");
		});
		assertThat(this.audited).hasSize(1);
	}

	@Test
	void theRetryOfAPendingRequestAsksAgainWaitsAgainAndRunsWhenItIsDecidedDuringTheRound() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest request = this.queue.next();
		CallResumption round2 = new CallResumption(round1.toCarry(), Duration.ofSeconds(10));

		Future<Object> retry = this.callers.submit(() -> pipeline.call(call("notes.txt", "bob", round2)));
		assertThat(this.queue.next()).as("the same request, asked about again").isEqualTo(request);
		this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant());

		assertThat(retry.get(5, TimeUnit.SECONDS)).isEqualTo("deleted notes.txt");
		assertThat(this.store.auditTrail(10)).singleElement()
			.satisfies((record) -> assertThat(record.requestId()).isEqualTo(request.id()));
	}

	@Test
	void aCarriedRequestForOtherArgumentsOrAnotherPrincipalIsNotReused() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest first = this.queue.next();
		this.store.decide(first.id(), ApprovalDecision.approve("alice"), this.clock.instant());

		CallResumption otherArguments = retryOf(round1);
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("passwords.txt", "bob", otherArguments)));
		CallResumption otherPrincipal = retryOf(round1);
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "mallory", otherPrincipal)));

		ApprovalRequest second = this.queue.next();
		ApprovalRequest third = this.queue.next();
		assertThat(List.of(second.id(), third.id())).doesNotContain(first.id()).doesNotHaveDuplicates();
		assertThat(otherArguments.toCarry()).containsEntry(ApprovalMiddleware.CARRIED_REQUEST, second.id());
		assertThat(otherPrincipal.toCarry()).containsEntry(ApprovalMiddleware.CARRIED_REQUEST, third.id());
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void aCarriedRequestThatExpiredIsDeniedAsTimedOut() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest request = this.queue.next();
		this.clock.advance(ApprovalMiddleware.DEFAULT_TIMEOUT);

		assertThatExceptionOfType(ApprovalDeniedException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", retryOf(round1))))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.TIMED_OUT));
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.TIMED_OUT);
		});
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void aCarriedRequestThatExpiredIsDeniedAsTimedOutWithoutAskingTheClientAgain() throws Exception {
		AtomicInteger asked = new AtomicInteger();
		ToolPipeline pipeline = pipeline(new FixedProvider((request) -> {
			asked.incrementAndGet();
			return CompletableFuture.failedFuture(new ToolInputRequiredException("delete_file", "elicitation"));
		}));
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		this.clock.advance(ApprovalMiddleware.DEFAULT_TIMEOUT);

		assertThatExceptionOfType(ApprovalDeniedException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", retryOf(round1))))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.TIMED_OUT));
		assertThat(asked).hasValue(1);
		assertThat(this.store.auditTrail(10)).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(ApprovalOutcome.TIMED_OUT));
	}

	@Test
	void aCarriedRequestDeniedBetweenRoundsDeniesTheRetry() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest request = this.queue.next();
		this.store.decide(request.id(), ApprovalDecision.deny("alice", "not today"), this.clock.instant());

		assertThatExceptionOfType(ApprovalDeniedException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", retryOf(round1))))
			.withMessageContaining("alice denied it: not today");
		assertThat(this.store.auditTrail(10)).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(ApprovalOutcome.DENIED));
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void aProviderWhoseFutureFailsWithInputRequiredEndsTheRoundWithThatExceptionNotADenial() throws Exception {
		ToolInputRequiredException asking = new ToolInputRequiredException("delete_file", "elicitation");
		ToolPipeline pipeline = pipeline(
				new FixedProvider((request) -> CompletableFuture.failedFuture(new CompletionException(asking))));
		CallResumption round = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round)))
			.isSameAs(asking);
		assertThat(this.store.pending(this.clock.instant())).singleElement()
			.satisfies((request) -> assertThat(round.toCarry()).containsEntry(ApprovalMiddleware.CARRIED_REQUEST,
					request.id()));
		assertThat(this.store.auditTrail(10)).isEmpty();
	}

	@Test
	void aProviderThatThrowsInputRequiredEndsTheRoundWithThatExceptionNotADenial() throws Exception {
		ToolInputRequiredException asking = new ToolInputRequiredException("delete_file", "elicitation");
		ToolPipeline pipeline = pipeline(new FixedProvider((request) -> {
			throw asking;
		}));
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", firstRound())))
			.isSameAs(asking);
		assertThat(this.store.pending(this.clock.instant())).hasSize(1);
		assertThat(this.store.auditTrail(10)).isEmpty();
	}

	@Test
	void anyOtherProviderFailureOnACallServedInRoundsStillDenies() {
		ToolPipeline pipeline = pipeline(new FixedProvider((request) -> CompletableFuture
			.failedFuture(new CompletionException(new IllegalStateException("down")))));
		assertThatExceptionOfType(ApprovalDeniedException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", firstRound())))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.PROVIDER_FAILED));
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.store.auditTrail(10)).singleElement()
			.satisfies((record) -> assertThat(record.outcome()).isEqualTo(ApprovalOutcome.PROVIDER_FAILED));
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void anApprovalAppliedInAnEarlierRoundWhoseToolThenAskedItsClientIsNotRecordedAgain() throws Exception {
		AtomicInteger toolRuns = new AtomicInteger();
		ApprovalMiddleware approval = ApprovalMiddleware.builder()
			.clock(this.clock)
			.store(this.store)
			.provider(
					new FixedProvider((request) -> CompletableFuture.completedFuture(ApprovalDecision.approve("bob"))))
			.build();
		ToolPipeline pipeline = ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> {
			if (toolRuns.incrementAndGet() == 1) {
				throw new ToolInputRequiredException("delete_file", "elicitation");
			}
			return "deleted";
		}), approval);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		String requestId = round1.toCarry().get(ApprovalMiddleware.CARRIED_REQUEST);
		assertThat(round1.toCarry()).containsEntry(ApprovalMiddleware.CARRIED_APPLIED, requestId);

		assertThat(pipeline.call(call("notes.txt", "bob", retryOf(round1)))).isEqualTo("deleted");

		assertThat(toolRuns).hasValue(2);
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(requestId);
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
		});
	}

	@Test
	void aRetryCancelledWhileItWaitsWithdrawsTheCarriedRequest() throws Exception {
		ToolPipeline pipeline = pipeline(this.queue);
		CallResumption round1 = firstRound();
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> pipeline.call(call("notes.txt", "bob", round1)));
		ApprovalRequest request = this.queue.next();
		CallCancellation cancellation = new CallCancellation();
		Future<Object> retry = this.callers.submit(() -> pipeline.call(
				call("notes.txt", "bob", new CallResumption(round1.toCarry(), Duration.ofSeconds(10))), cancellation));
		this.queue.next();

		cancellation.cancel("the client closed the stream");

		assertThat(retry).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(ToolCancelledException.class);
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.CANCELLED);
		});
	}

}
