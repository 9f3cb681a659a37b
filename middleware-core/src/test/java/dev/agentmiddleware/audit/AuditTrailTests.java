package dev.agentmiddleware.audit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.ToolClientLog;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ClientRequest.Kind;
import dev.agentmiddleware.tool.ClientRequest.Outcome;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

class AuditTrailTests {

	private static final ToolDescriptor TOOL = ToolDescriptor.builder("delete_file").build();

	private final InMemoryAuditStore store = new InMemoryAuditStore(100);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void aCallThatRanLeavesOneRecordWithDigestSizeFingerprintAndTraceButNoArguments() throws Exception {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> "deleted");
		MDC.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
		try {
			pipeline.call(call().sessionId("session-secret-1").source(InvocationSource.MCP).build());
		}
		finally {
			MDC.remove("traceId");
		}
		AuditRecord record = awaitRecords(1).get(0);
		assertThat(record.tool()).isEqualTo("delete_file");
		assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
		assertThat(record.decidedBy()).isNull();
		assertThat(record.source()).isEqualTo(InvocationSource.MCP);
		assertThat(record.principal()).isEqualTo("bob");
		assertThat(record.sessionFingerprint()).isEqualTo(SessionFingerprint.of("session-secret-1"));
		assertThat(record.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
		assertThat(record.argumentsDigest())
			.isEqualTo(
					dev.agentmiddleware.cache.ArgumentsFingerprint.of(Map.of("path", "notes.txt", "token", "hunter2"))
						.sha256())
			.hasSize(64);
		assertThat(record.arguments()).isNull();
		assertThat(record.resultSize()).isEqualTo(7L);
		assertThat(record.toString()).doesNotContain("session-secret-1").doesNotContain("hunter2");
	}

	@Test
	void aToolThatOptsInHasItsArgumentsRedacted() throws Exception {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store).argumentsOf(Set.of("delete_file"))),
				(invocation) -> "deleted");
		pipeline.call(call().build());
		assertThat(awaitRecords(1).get(0).arguments()).isEqualTo("{\"path\":\"notes.txt\",\"token\":\"[REDACTED]\"}");
	}

	@Test
	void aFailedCallIsRecordedAsFailed() {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> {
			throw new IllegalStateException("disk full");
		});
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> pipeline.call(call().build()));
		AuditRecord record = awaitRecords(1).get(0);
		assertThat(record.outcome()).isEqualTo(CallOutcome.FAILED);
		assertThat(record.resultSize()).isNull();
	}

	@Test
	void aCancelledCallIsRecordedAsCancelled() {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> "deleted");
		CallCancellation cancellation = new CallCancellation();
		cancellation.cancel("the user stopped the agent");
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> pipeline.call(call().build(), cancellation));
		assertThat(awaitRecords(1).get(0).outcome()).isEqualTo(CallOutcome.CANCELLED);
	}

	@Test
	void theRequestsTheToolMadeToItsClientAreRecordedWithHowEachEndedButNotWhatWasAskedOrAnswered() throws Exception {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> {
			ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
			client.log(ToolClient.Level.INFO, "deleting the secret notes");
			client.elicit(ElicitationRequest.builder("Really delete the secret notes?").build());
			client.elicit(ElicitationRequest.builder("And the backup?").build());
			try {
				client.sample(SamplingRequest.of("Summarise the secret notes", 20));
			}
			catch (ToolClientUnavailableException ex) {
				// no sampling: deleted without a summary
			}
			try {
				client.elicit(ElicitationRequest.builder("And the trash?").build());
			}
			catch (CancellationException ex) {
				return "deleted, the trash kept";
			}
			return "deleted";
		});
		pipeline.call(call().attribute(ToolClient.ATTRIBUTE, new ScriptedClient()).build());
		AuditRecord record = awaitRecords(1).get(0);
		assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
		assertThat(record.clientRequests()).extracting(ClientRequest::kind, ClientRequest::outcome)
			.containsExactly(tuple(Kind.ELICITATION, Outcome.ACCEPT), tuple(Kind.ELICITATION, Outcome.DECLINE),
					tuple(Kind.SAMPLING, Outcome.UNAVAILABLE), tuple(Kind.ELICITATION, Outcome.CANCELLED));
		assertThat(record.clientRequests())
			.allSatisfy((request) -> assertThat(request.duration()).isBetween(Duration.ZERO, Duration.ofMinutes(1)));
		assertThat(record.toString()).doesNotContain("secret").doesNotContain("trash");
	}

	@Test
	void aCallWithoutAnMcpClientRecordsItsRequestsAsUnavailable() throws Exception {
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> {
			ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
			try {
				return client.elicit(ElicitationRequest.builder("Sure?").build()).action();
			}
			catch (ToolClientUnavailableException ex) {
				return "deleted without asking";
			}
		});
		pipeline.call(call().build());
		pipeline.call(call().build());
		assertThat(awaitRecords(2)).allSatisfy((record) -> assertThat(record.clientRequests()).singleElement()
			.satisfies((request) -> assertThat(request.outcome()).isEqualTo(Outcome.UNAVAILABLE)));
	}

	@Test
	void aCallWhoseToolAskedNothingHasNoClientRequests() throws Exception {
		pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> "deleted").call(call().build());
		assertThat(awaitRecords(1).get(0).clientRequests()).isEmpty();
	}

	@Test
	void everyKindOfRefusalIsRecordedWithTheLayerThatRefused() throws Exception {
		AuditTrail trail = trail(AuditTrail.builder(this.store));
		ToolPipeline rateLimited = pipeline(trail, (invocation) -> "deleted",
				RateLimitMiddleware.builder().policies((tool) -> RateLimitPolicy.of(1, Duration.ofMinutes(1))).build());
		rateLimited.call(call().build());
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> rateLimited.call(call().build()));
		ToolPipeline forbidden = pipeline(trail, (invocation) -> "deleted",
				AuthorizationMiddleware.builder()
					.policies((tool) -> AuthorizationPolicy.of("SCOPE_files.write"))
					.build());
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> forbidden.call(call().build()));
		ToolPipeline invalid = pipeline(trail, (invocation) -> "deleted");
		assertThatExceptionOfType(InvalidToolArgumentsException.class).isThrownBy(() -> invalid
			.call(call().attribute(UnboundArguments.ATTRIBUTE, UnboundArguments.of("{\"path\":7}", () -> {
				throw new InvalidToolArgumentsException("delete_file", "path", "a string");
			})).build()));
		List<AuditRecord> records = awaitRecords(4);
		assertThat(records).extracting(AuditRecord::outcome, AuditRecord::decidedBy)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(CallOutcome.INVALID_ARGUMENTS, null),
					org.assertj.core.groups.Tuple.tuple(CallOutcome.FORBIDDEN, "authorization"),
					org.assertj.core.groups.Tuple.tuple(CallOutcome.RATE_LIMITED, "rate-limit"),
					org.assertj.core.groups.Tuple.tuple(CallOutcome.SUCCEEDED, null));
	}

	@Test
	void approvalDecisionsLinkTheirRequestOrGrantToTheCallsRecord() throws Exception {
		AtomicReference<ApprovalDecision> next = new AtomicReference<>(ApprovalDecision.deny("alice", "no"));
		List<ApprovalRequest> asked = new CopyOnWriteArrayList<>();
		InMemoryApprovalStore approvals = new InMemoryApprovalStore();
		ApprovalMiddleware approval = ApprovalMiddleware.builder()
			.store(approvals)
			.policies((tool) -> dev.agentmiddleware.approval.ApprovalPolicy.REQUIRED)
			.provider(new ApprovalProvider() {

				@Override
				public String name() {
					return "test";
				}

				@Override
				public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request,
						ToolInvocation invocation) {
					asked.add(request);
					return CompletableFuture.completedFuture(next.get());
				}

			})
			.build();
		ToolPipeline pipeline = pipeline(trail(AuditTrail.builder(this.store)), (invocation) -> "deleted", approval);
		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> pipeline.call(call().sessionId("s1").argument("path", "a").build()));
		next.set(ApprovalDecision.approveForSession("alice", GrantScope.TOOL));
		pipeline.call(call().sessionId("s1").argument("path", "b").build());
		pipeline.call(call().sessionId("s1").argument("path", "c").build());
		List<AuditRecord> records = awaitRecords(3);
		assertThat(asked).hasSize(2);
		AuditRecord denied = records.get(2);
		assertThat(denied.outcome()).isEqualTo(CallOutcome.DENIED);
		assertThat(denied.decidedBy()).isEqualTo("approval");
		assertThat(denied.approvalRequestId()).isEqualTo(asked.get(0).id());
		assertThat(records.get(1).outcome()).isEqualTo(CallOutcome.SUCCEEDED);
		assertThat(records.get(1).approvalRequestId()).isEqualTo(asked.get(1).id());
		assertThat(records.get(0).approvalRequestId()).isNull();
		assertThat(records.get(0).approvalGrantedBy()).isEqualTo("alice");
		assertThat(approvals.auditTrail(10)).extracting((record) -> record.requestId())
			.contains(asked.get(0).id(), asked.get(1).id(), records.get(0).callId());
	}

	@Test
	void anOutageIsCountedBufferedAndFlushedWhenTheStoreIsBack() throws Exception {
		AtomicBoolean down = new AtomicBoolean(true);
		List<List<AuditRecord>> batches = new CopyOnWriteArrayList<>();
		AuditStore flaky = new AuditStore() {

			@Override
			public void append(List<AuditRecord> records) {
				if (down.get()) {
					throw new IllegalStateException("connection refused");
				}
				batches.add(records);
				AuditTrailTests.this.store.append(records);
			}

			@Override
			public List<AuditRecord> find(AuditQuery query) {
				return AuditTrailTests.this.store.find(query);
			}

			@Override
			public int purgeBefore(Instant cutoff) {
				return 0;
			}

		};
		AuditTrail trail = trail(AuditTrail.builder(flaky).retryInterval(Duration.ofMillis(20)).batchSize(10));
		ToolPipeline pipeline = pipeline(trail, (invocation) -> "deleted");
		for (int i = 0; i < 25; i++) {
			pipeline.call(call().build());
		}
		await().until(() -> trail.writeFailures() >= 2);
		assertThat(this.store.size()).isZero();
		down.set(false);
		awaitRecords(25);
		assertThat(trail.droppedRecords()).isZero();
		assertThat(trail.writtenRecords()).isEqualTo(25);
		assertThat(batches).allSatisfy((batch) -> assertThat(batch).hasSizeLessThanOrEqualTo(10));
	}

	@Test
	void aFullBufferDropsAndCountsInsteadOfBlockingTheCall() throws Exception {
		AuditStore down = new AuditStore() {

			@Override
			public void append(List<AuditRecord> records) {
				throw new IllegalStateException("connection refused");
			}

			@Override
			public List<AuditRecord> find(AuditQuery query) {
				return List.of();
			}

			@Override
			public int purgeBefore(Instant cutoff) {
				return 0;
			}

		};
		AuditTrail trail = trail(
				AuditTrail.builder(down).bufferCapacity(5).batchSize(1).retryInterval(Duration.ofHours(1)));
		ToolPipeline pipeline = pipeline(trail, (invocation) -> "deleted");
		pipeline.call(call().build());
		await().until(() -> trail.writeFailures() == 1);
		for (int i = 0; i < 10; i++) {
			assertThat(pipeline.call(call().build())).isEqualTo("deleted");
		}
		assertThat(trail.pendingRecords()).isEqualTo(5);
		assertThat(trail.droppedRecords()).isEqualTo(5);
	}

	@Test
	void theInMemoryStoreKeepsTheNewestWithinItsCapacity() {
		InMemoryAuditStore small = new InMemoryAuditStore(3);
		List<AuditRecord> records = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			records.add(record("call-" + i, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i), "t"));
		}
		small.append(records);
		assertThat(small.size()).isEqualTo(3);
		assertThat(small.find(AuditQuery.all())).extracting(AuditRecord::callId)
			.containsExactly("call-4", "call-3", "call-2");
		assertThat(small.find(AuditQuery.all().withPage(1, 2))).extracting(AuditRecord::callId)
			.containsExactly("call-2");
		assertThat(small.find(AuditQuery.all().withTime(Instant.parse("2026-01-01T00:00:03Z"), null)))
			.extracting(AuditRecord::callId)
			.containsExactly("call-4", "call-3");
	}

	@Test
	void retentionPurgesRecordsOlderThanItByTheInjectedClock() {
		Instant now = Instant.parse("2026-06-01T00:00:00Z");
		this.store.append(List.of(record("old", now.minus(Duration.ofDays(91)), "t"),
				record("recent", now.minus(Duration.ofDays(89)), "t")));
		AuditTrail trail = trail(
				AuditTrail.builder(this.store).retention(Duration.ofDays(90)).clock(Clock.fixed(now, ZoneOffset.UTC)));
		assertThat(trail.purgeExpired()).isEqualTo(1);
		assertThat(this.store.find(AuditQuery.all())).extracting(AuditRecord::callId).containsExactly("recent");
		assertThat(trail.purgedRecords()).isEqualTo(1);
	}

	static AuditRecord record(String callId, Instant time, String tool) {
		return new AuditRecord(time, callId, tool, InvocationSource.JAVA, "bob", null, null, CallOutcome.SUCCEEDED,
				null, null, null, Duration.ofMillis(3), "0".repeat(64), null, 4L);
	}

	private AuditTrail trail(AuditTrail.Builder builder) {
		AuditTrail trail = builder.flushInterval(Duration.ofMillis(10)).build();
		this.closeables.add(trail);
		return trail;
	}

	private ToolPipeline pipeline(AuditTrail trail, ToolHandler tool, ToolMiddleware... middleware) {
		ToolCallObservers observers = ToolCallObservers.builder().observer(trail).build();
		this.closeables.add(0, observers);
		return ToolPipeline.builder(TOOL, tool).middleware(List.of(middleware)).observers(observers).build();
	}

	// The client of an MCP client that declared elicitation but not sampling, whose user
	// accepts, declines, and is
	// still thinking when the call is cancelled.
	private static final class ScriptedClient implements ToolClient {

		private int elicitations;

		@Override
		public void log(Level level, String message) {
		}

		@Override
		public boolean canElicit() {
			return true;
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			return switch (this.elicitations++) {
				case 0 -> new ElicitationResult(ElicitationResult.Action.ACCEPT, Map.of("confirm", "secret yes"));
				case 1 -> new ElicitationResult(ElicitationResult.Action.DECLINE, Map.of());
				default -> throw new CancellationException("the call was cancelled");
			};
		}

		@Override
		public boolean canSample() {
			return false;
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			throw new ToolClientUnavailableException("delete_file", "sampling",
					"the MCP client did not declare the sampling capability");
		}

	}

	private static ToolInvocation.Builder call() {
		return ToolInvocation.builder(TOOL).argument("path", "notes.txt").argument("token", "hunter2").principal("bob");
	}

	private List<AuditRecord> awaitRecords(int count) {
		await().until(() -> this.store.size() >= count);
		assertThat(this.store.size()).isEqualTo(count);
		return this.store.find(AuditQuery.all().withPage(0, 1000));
	}

}
