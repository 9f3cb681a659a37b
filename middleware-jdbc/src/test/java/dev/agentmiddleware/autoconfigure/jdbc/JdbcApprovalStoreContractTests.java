package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalDeniedException;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.ApprovalStore.DecideResult;
import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;
import dev.agentmiddleware.approval.SessionGrant;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.MutableClock;
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
 * The JDBC approval store's behaviour, run against each database by a subclass.
 */
abstract class JdbcApprovalStoreContractTests {

	private static final ToolDescriptor DELETE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	protected final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

	private final List<JdbcApprovalStore> stores = new ArrayList<>();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	protected abstract DataSource dataSource();

	@AfterEach
	void closeStores() throws Exception {
		this.callers.shutdownNow();
		for (JdbcApprovalStore store : this.stores) {
			store.close();
		}
	}

	protected JdbcApprovalStore store(String instanceId) {
		JdbcApprovalStore store = new JdbcApprovalStore(dataSource(), this.clock, Duration.ofMillis(200),
				Duration.ofSeconds(30), instanceId);
		store.initializeSchema();
		store.start();
		this.stores.add(store);
		return store;
	}

	private ApprovalRequest request(String id, Duration timeout) {
		Instant now = this.clock.instant();
		return new ApprovalRequest(id, "delete_file", SafetyLevel.DANGEROUS, "{\"path\":\"a.txt\"}", "hash-a", "s1",
				"bob", "delete_file {\"path\":\"a.txt\"}", now, now.plus(timeout));
	}

	@Test
	void firstDecisionWinsAndLaterOnesAreRefused() {
		JdbcApprovalStore store = store("a");
		store.add(request("r1", Duration.ofMinutes(2)));
		assertThat(store.pending(this.clock.instant())).extracting(ApprovalRequest::id).containsExactly("r1");
		assertThat(store.find("r1")).get()
			.extracting(ApprovalRequest::summary)
			.isEqualTo("delete_file {\"path\":\"a.txt\"}");
		assertThat(
				store.decide("r1", ApprovalDecision.approveForSession("alice", GrantScope.TOOL), this.clock.instant()))
			.isEqualTo(DecideResult.DECIDED);
		assertThat(store.decide("r1", ApprovalDecision.deny("eve", "no"), this.clock.instant()))
			.isEqualTo(DecideResult.ALREADY_DECIDED);
		assertThat(store.decide("nope", ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.UNKNOWN);
		assertThat(store.close("r1", ApprovalDecision.deny("system", null), this.clock.instant()))
			.isEqualTo(ApprovalDecision.approveForSession("alice", GrantScope.TOOL));
		assertThat(store.pending(this.clock.instant())).isEmpty();
	}

	@Test
	void principalNamesLongerThan255CharactersAreKeptExactly() throws Exception {
		// Token subjects and approver names longer than the VARCHAR(255) columns that
		// used to keep them
		String requester = "sub-" + "r".repeat(296);
		String approver = "sub-" + "a".repeat(296);
		JdbcApprovalStore store = store("a");
		Instant now = this.clock.instant();
		store.add(new ApprovalRequest("r-long", "delete_file", SafetyLevel.DANGEROUS, "{}", "hash-a", "s1", requester,
				"delete_file {}", now, now.plus(Duration.ofMinutes(2))));
		assertThat(store.find("r-long")).get().extracting(ApprovalRequest::principal).isEqualTo(requester);
		assertThat(store.decide("r-long", ApprovalDecision.approveForSession(approver, GrantScope.TOOL), now))
			.isEqualTo(DecideResult.DECIDED);
		assertThat(store.awaitDecision("r-long", now, this.clock)).get()
			.extracting(ApprovalDecision::decidedBy)
			.isEqualTo(approver);

		store.grant(new SessionGrant("s1", "delete_file", null, approver, now.plus(Duration.ofMinutes(2))));
		assertThat(store.findGrant("s1", "delete_file", "hash-a", now)).get()
			.extracting(SessionGrant::grantedBy)
			.isEqualTo(approver);
		store.recordDenial(new DeniedCall("s1", "delete_file", "hash-b", approver, "no", now));
		assertThat(store.findDenial("s1", "delete_file", "hash-b", now)).get()
			.extracting(DeniedCall::deniedBy)
			.isEqualTo(approver);
		store.audit(new ApprovalAuditRecord("r-long", "delete_file", "hash-a", "s1", requester, approver,
				ApprovalOutcome.APPROVED, null, now, now));
		assertThat(store.auditTrail(1)).singleElement().satisfies((record) -> {
			assertThat(record.principal()).isEqualTo(requester);
			assertThat(record.decidedBy()).isEqualTo(approver);
		});
	}

	@Test
	void expiredRequestCannotBeDecided() {
		JdbcApprovalStore store = store("a");
		store.add(request("r2", Duration.ofSeconds(10)));
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(store.decide("r2", ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.EXPIRED);
		assertThat(store.pending(this.clock.instant())).isEmpty();
	}

	@Test
	void callWaitingOnOneInstanceIsReleasedByADecisionPostedToAnother() throws Exception {
		JdbcApprovalStore instanceA = store("a");
		JdbcApprovalStore instanceB = store("b");
		LinkedBlockingQueue<ApprovalRequest> asked = new LinkedBlockingQueue<>();
		AtomicInteger runs = new AtomicInteger();
		ApprovalMiddleware middleware = ApprovalMiddleware.builder()
			.store(instanceA)
			.clock(this.clock)
			.provider(new QueueLikeProvider(asked))
			.build();
		ToolPipeline pipeline = ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> {
			runs.incrementAndGet();
			return "deleted";
		}), middleware);
		Future<Object> waiting = this.callers.submit(
				() -> pipeline.call(ToolInvocation.builder(DELETE).argument("path", "a.txt").sessionId("s1").build()));
		ApprovalRequest request = asked.poll(10, TimeUnit.SECONDS);
		assertThat(request).isNotNull();
		assertThat(instanceB.pending(this.clock.instant())).extracting(ApprovalRequest::id)
			.containsExactly(request.id());
		assertThat(runs).hasValue(0);
		assertThat(instanceB.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.DECIDED);
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("deleted");
		assertThat(runs).hasValue(1);
		assertThat(instanceB.auditTrail(10)).first().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(request.id());
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
			assertThat(record.decidedBy()).isEqualTo("alice");
		});
	}

	@Test
	void deniedCallOnOneInstanceIsDeniedThroughTheOther() throws Exception {
		JdbcApprovalStore instanceA = store("a");
		JdbcApprovalStore instanceB = store("b");
		LinkedBlockingQueue<ApprovalRequest> asked = new LinkedBlockingQueue<>();
		ApprovalMiddleware middleware = ApprovalMiddleware.builder()
			.store(instanceA)
			.clock(this.clock)
			.provider(new QueueLikeProvider(asked))
			.build();
		ToolPipeline pipeline = ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> "deleted"), middleware);
		Future<Object> waiting = this.callers.submit(
				() -> pipeline.call(ToolInvocation.builder(DELETE).argument("path", "b.txt").sessionId("s1").build()));
		ApprovalRequest request = asked.poll(10, TimeUnit.SECONDS);
		instanceB.decide(request.id(), ApprovalDecision.deny("alice", "keep it"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(ApprovalDeniedException.class)
			.withMessageContaining("alice denied it: keep it");
		assertThat(instanceB.findDenial("s1", "delete_file", request.argumentsHash(), Instant.EPOCH)).isPresent();
	}

	@Test
	void grantsDenialsAndAuditTrailAreShared() {
		JdbcApprovalStore instanceA = store("a");
		JdbcApprovalStore instanceB = store("b");
		Instant now = this.clock.instant();
		instanceA.grant(new SessionGrant("s1", "delete_file", "h1", "alice", now.plusSeconds(60)));
		instanceA.grant(new SessionGrant("s1", "delete_file", "h1", "alice", now.plusSeconds(120)));
		instanceA.grant(new SessionGrant("s2", "delete_file", null, "alice", now.plusSeconds(60)));
		assertThat(instanceB.findGrant("s1", "delete_file", "h1", now)).get()
			.extracting(SessionGrant::expiresAt)
			.isEqualTo(now.plusSeconds(120));
		assertThat(instanceB.findGrant("s1", "delete_file", "h2", now)).isEmpty();
		assertThat(instanceB.findGrant("s2", "delete_file", "any", now)).isPresent();
		assertThat(instanceB.findGrant("s2", "delete_file", "any", now.plusSeconds(60))).isEmpty();
		instanceA.recordDenial(new DeniedCall("s1", "delete_file", "h1", "alice", "no", now));
		assertThat(instanceB.findDenial("s1", "delete_file", "h1", now.minusSeconds(1))).get()
			.extracting(DeniedCall::reason)
			.isEqualTo("no");
		assertThat(instanceB.findDenial("s1", "delete_file", "h1", now.plusSeconds(1))).isEmpty();
	}

	@Test
	void requestsOfAnInstanceThatRestartedAreAbandonedAndCannotBeApproved() {
		JdbcApprovalStore before = store("instance-x");
		before.add(request("r3", Duration.ofMinutes(2)));
		JdbcApprovalStore afterRestart = store("instance-x");
		assertThat(afterRestart.pending(this.clock.instant())).isEmpty();
		assertThat(afterRestart.decide("r3", ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.ALREADY_DECIDED);
		assertThat(afterRestart.auditTrail(1)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo("r3");
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.ABANDONED);
		});
	}

	@Test
	void requestWhoseCallerStoppedBeatingIsAbandoned() {
		JdbcApprovalStore store = store("a");
		store.add(request("r4", Duration.ofMinutes(2)));
		this.clock.advance(Duration.ofSeconds(31));
		assertThat(store.pending(this.clock.instant())).isEmpty();
		assertThat(store.decide("r4", ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.ALREADY_DECIDED);
	}

	@Test
	void requestKeptPendingBetweenRoundsIsNeitherAbandonedWithoutHeartbeatNorByARestartUntilItExpires() {
		JdbcApprovalStore store = store("instance-y");
		ApprovalRequest request = request("r5", Duration.ofMinutes(2));
		store.add(request);
		store.keepPending("r5", request.expiresAt());
		this.clock.advance(Duration.ofSeconds(90));
		JdbcApprovalStore afterRestart = store("instance-y");
		assertThat(afterRestart.pending(this.clock.instant())).extracting(ApprovalRequest::id).containsExactly("r5");
		assertThat(afterRestart.decide("r5", ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(DecideResult.DECIDED);
		assertThat(afterRestart.auditTrail(10)).isEmpty();
	}

	@Test
	void aRoundOfACallServedInRoundsLeavesItsRequestPendingForTheRetryOnAnotherInstance() throws Exception {
		JdbcApprovalStore instanceA = store("instance-a");
		JdbcApprovalStore instanceB = store("instance-b");
		// The question goes to the client (MCP 2026-07-28 input_required): the round ends
		ApprovalProvider asksTheClient = new QuestionToTheClient();
		ToolPipeline onA = ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> "deleted"),
				ApprovalMiddleware.builder().clock(this.clock).store(instanceA).provider(asksTheClient).build());
		ToolPipeline onB = ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> "deleted"),
				ApprovalMiddleware.builder().clock(this.clock).store(instanceB).provider(asksTheClient).build());
		CallResumption round1 = new CallResumption(java.util.Map.of(), Duration.ofSeconds(20));
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> onA.call(ToolInvocation.builder(DELETE)
				.argument("path", "a.txt")
				.attribute(CallResumption.ATTRIBUTE, round1)
				.build()));
		String id = round1.toCarry().get(ApprovalMiddleware.CARRIED_REQUEST);
		// The user takes longer than abandon-after to answer, and instance A restarts
		this.clock.advance(Duration.ofSeconds(90));
		store("instance-a");
		assertThat(instanceB.pending(this.clock.instant())).extracting(ApprovalRequest::id).containsExactly(id);
		instanceB.decide(id, ApprovalDecision.approve("alice"), this.clock.instant());

		assertThat(onB.call(ToolInvocation.builder(DELETE)
			.argument("path", "a.txt")
			.attribute(CallResumption.ATTRIBUTE, new CallResumption(round1.toCarry(), Duration.ofSeconds(20)))
			.build())).isEqualTo("deleted");
		assertThat(instanceB.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.requestId()).isEqualTo(id);
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
		});
	}

	static final class QuestionToTheClient implements ApprovalProvider {

		@Override
		public String name() {
			return "mcp-elicitation";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			return CompletableFuture.failedFuture(new ToolInputRequiredException("delete_file", "elicitation"));
		}

	}

	record QueueLikeProvider(LinkedBlockingQueue<ApprovalRequest> asked) implements ApprovalProvider {

		@Override
		public String name() {
			return "queue";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			this.asked.add(request);
			return new CompletableFuture<>();
		}

	}

}
