package dev.agentmiddleware.approval;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalProvider.CallbackApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ApprovalMiddlewareTests {

	private static final ToolDescriptor DELETE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	private static final ToolDescriptor READ = ToolDescriptor.builder("read_file")
		.safety(SafetyLevel.SAFE)
		.readOnly(true)
		.build();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

	private final InMemoryApprovalStore store = new InMemoryApprovalStore();

	private final CapturingProvider provider = new CapturingProvider();

	private final AtomicInteger runs = new AtomicInteger();

	private final List<Map<String, Object>> ranWith = new java.util.concurrent.CopyOnWriteArrayList<>();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	private final List<ApprovalAuditRecord> audited = new java.util.concurrent.CopyOnWriteArrayList<>();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	private ApprovalMiddleware.Builder middleware() {
		return ApprovalMiddleware.builder()
			.clock(this.clock)
			.store(this.store)
			.provider(new CompositeApprovalProvider(List.of(this.provider)))
			.auditListener(this.audited::add)
			.argumentsBinder((tool, json) -> {
				if (json.contains("\"..")) {
					throw new InvalidToolArgumentsException(tool.name(), "path", "a path inside the workspace");
				}
				return Map.of("path", json.replaceAll(".*\"path\"\\s*:\\s*\"([^\"]*)\".*", "$1"));
			});
	}

	private ToolPipeline pipeline(ApprovalMiddleware middleware) {
		return ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> {
			this.runs.incrementAndGet();
			this.ranWith.add(new LinkedHashMap<>(invocation.arguments()));
			return "deleted " + invocation.argument("path");
		}), middleware);
	}

	private static ToolInvocation call(String path, String session) {
		return ToolInvocation.builder(DELETE).argument("path", path).sessionId(session).principal("bob").build();
	}

	private Future<Object> callAsync(ToolPipeline pipeline, ToolInvocation invocation) {
		return this.callers.submit(() -> pipeline.call(invocation));
	}

	@Test
	void toolThatNeedsNoApprovalGetsTheNextHandlerItself() {
		ToolHandler next = (invocation) -> "read";
		assertThat(middleware().build().wrap(READ, next)).isSameAs(next);
		assertThat(middleware().build().wrap(DELETE, next)).isNotSameAs(next);
	}

	@Test
	void aPolicyFunctionGatesExactlyTheToolsItGivesAPolicyAndReportsThem() {
		ToolHandler next = (invocation) -> "ran";
		ApprovalMiddleware approval = middleware()
			.policies((tool) -> tool.name().equals("read_file") ? ApprovalPolicy.REQUIRED : null)
			.build();
		assertThat(approval.wrap(DELETE, next)).as("dangerous, but given no policy").isSameAs(next);
		assertThat(approval.wrap(READ, next)).isNotSameAs(next);
		assertThat(approval.policies()).containsExactly(Map.entry("read_file", ApprovalPolicy.REQUIRED));
	}

	@Test
	void approvedCallWaitsThenRunsOnceAndIsAudited() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> result = callAsync(pipeline, call("notes.txt", "s1"));
		ApprovalRequest request = this.provider.next();
		assertThat(this.runs).hasValue(0);
		assertThat(request.toolName()).isEqualTo("delete_file");
		assertThat(request.sessionId()).isEqualTo("s1");
		assertThat(request.principal()).isEqualTo("bob");
		assertThat(request.summary()).isEqualTo("delete_file {\"path\":\"notes.txt\"}");
		assertThat(request.expiresAt()).isEqualTo(request.createdAt().plus(Duration.ofMinutes(2)));
		assertThat(this.store.pending(this.clock.instant())).containsExactly(request);
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.DECIDED);
		assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("deleted notes.txt");
		assertThat(this.runs).hasValue(1);
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.ALREADY_DECIDED);
		assertThat(this.store.auditTrail(10)).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
			assertThat(record.decidedBy()).isEqualTo("alice");
			assertThat(record.argumentsHash()).isEqualTo(request.argumentsHash());
		});
		assertThat(this.audited).hasSize(1);
	}

	@Test
	void deniedCallNeverRunsAndTheDenialSaysWhoAndWhy() throws Exception {
		List<ToolCallRecord> records = new CopyOnWriteArrayList<>();
		ToolCallObservers observers = ToolCallObservers.builder().observer(new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		}).build();
		ToolPipeline pipeline = ToolPipeline.builder(DELETE, (invocation) -> {
			this.runs.incrementAndGet();
			return "deleted " + invocation.argument("path");
		}).middleware(middleware().build()).observers(observers).build();
		Future<Object> result = callAsync(pipeline, call("notes.txt", "s1"));
		ApprovalRequest request = this.provider.next();
		this.store.decide(request.id(), ApprovalDecision.deny("alice", "keep the logs"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> result.get(5, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(ApprovalDeniedException.class)
			.withMessage("Call of tool 'delete_file' was denied by approval: alice denied it: keep the logs")
			.satisfies((ex) -> assertThat(((ApprovalDeniedException) ex).approvalOutcome())
				.isEqualTo(ApprovalOutcome.DENIED));
		assertThat(this.runs).hasValue(0);
		assertThat(records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.DENIED);
			assertThat(record.decidedBy()).isEqualTo("approval");
		});
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.DENIED);
	}

	@Test
	void stoppingTheApplicationEndsEveryWaitWithADenialAndTheToolNeverRuns() throws Exception {
		ApprovalMiddleware middleware = middleware().build();
		ToolPipeline pipeline = pipeline(middleware);
		Future<Object> first = callAsync(pipeline, call("a.txt", "s1"));
		Future<Object> second = callAsync(pipeline, call("b.txt", "s2"));
		this.provider.next();
		this.provider.next();
		assertThat(middleware.abandonWaiting("the application is shutting down")).isEqualTo(2);
		for (Future<Object> result : List.of(first, second)) {
			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
				.isThrownBy(() -> result.get(5, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(ApprovalDeniedException.class)
				.withMessageContaining("was still waiting for approval when the application is shutting down")
				.satisfies((ex) -> assertThat(((ApprovalDeniedException) ex).approvalOutcome())
					.isEqualTo(ApprovalOutcome.ABANDONED));
		}
		assertThat(this.runs).hasValue(0);
		assertThat(this.store.auditTrail(10)).extracting(ApprovalAuditRecord::outcome)
			.containsOnly(ApprovalOutcome.ABANDONED);
		assertThat(middleware.abandonWaiting("again")).as("nothing is waiting any more").isZero();
	}

	@Test
	void withoutAnyProviderTheCallIsDeniedBecauseNoApproverIsConfigured() {
		ToolPipeline pipeline = pipeline(middleware().provider(new CompositeApprovalProvider(List.of())).build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.withMessageContaining("no approver is configured")
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.NO_APPROVER));
		assertThat(this.runs).hasValue(0);
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.NO_APPROVER);
	}

	@Test
	void defaultMiddlewareWithNoProviderDenies() {
		ToolPipeline pipeline = pipeline(ApprovalMiddleware.builder().build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.withMessageContaining("no approver is configured");
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void providerThatThrowsDeniesWithoutLeakingItsMessage() {
		ApprovalProvider broken = new FixedProvider((request) -> {
			throw new IllegalStateException("db down, password=hunter2");
		});
		ToolPipeline pipeline = pipeline(middleware().provider(broken).build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.withMessage("Call of tool 'delete_file' was denied by approval: the approval provider 'fixed' failed, "
					+ "so it was not approved")
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.PROVIDER_FAILED));
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void providerWhoseDecisionFailsDenies() {
		ApprovalProvider failing = new FixedProvider(
				(request) -> CompletableFuture.failedFuture(new RuntimeException("boom")));
		ToolPipeline pipeline = pipeline(middleware().provider(failing).build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.PROVIDER_FAILED));
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void callbackProviderDecides() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			ApprovalProvider callback = new CallbackApprovalProvider((request) -> request.summary().contains("tmp/")
					? ApprovalDecision.approve("tmp-policy") : ApprovalDecision.deny("tmp-policy", "only tmp/"),
					executor);
			ToolPipeline pipeline = pipeline(middleware().provider(callback).build());
			assertThat(pipeline.call(call("tmp/a", "s1"))).isEqualTo("deleted tmp/a");
			assertThatExceptionOfType(ApprovalDeniedException.class)
				.isThrownBy(() -> pipeline.call(call("etc/passwd", "s1")))
				.withMessageContaining("tmp-policy denied it: only tmp/");
			assertThat(this.runs).hasValue(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void undecidedRequestTimesOutAndALateDecisionAppliesToNothing() throws Exception {
		// The provider lets the whole timeout pass on the clock before the call starts
		// waiting.
		CapturingProvider slow = new CapturingProvider((request) -> this.clock.advance(Duration.ofMinutes(2)));
		ToolPipeline pipeline = pipeline(middleware().provider(slow).timeout(Duration.ofMinutes(2)).build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.withMessage("Call of tool 'delete_file' was denied by approval: nobody approved it within 2m")
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.TIMED_OUT));
		ApprovalRequest request = slow.next();
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("late"), this.clock.instant()))
			.isNotEqualTo(ApprovalStore.DecideResult.DECIDED);
		assertThat(this.store.pending(this.clock.instant())).isEmpty();
		assertThat(this.runs).hasValue(0);
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.TIMED_OUT);
	}

	@Test
	void expiredPendingRequestCannotBeDecided() {
		ApprovalRequest request = new ApprovalRequest("r1", "delete_file", SafetyLevel.DANGEROUS, "{}", "h", "s", null,
				"delete_file {}", this.clock.instant(), this.clock.instant().plusSeconds(60));
		this.store.add(request);
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.store.decide("r1", ApprovalDecision.approve("late"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.EXPIRED);
		assertThat(this.store.decide("nope", ApprovalDecision.approve("x"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.UNKNOWN);
	}

	@Test
	void approvalForTheSessionCoversOnlyTheSameArgumentsInTheSameSession() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> first = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.approveForSession("alice", GrantScope.ARGUMENTS),
				this.clock.instant());
		assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("deleted a.txt");
		assertThat(pipeline.call(call("a.txt", "s1"))).isEqualTo("deleted a.txt");
		assertThat(this.provider.asked).hasValue(1);
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.GRANTED);

		Future<Object> otherArguments = callAsync(pipeline, call("b.txt", "s1"));
		ApprovalRequest askedAgain = this.provider.next();
		assertThat(askedAgain.summary()).contains("b.txt");
		Future<Object> otherSession = callAsync(pipeline, call("a.txt", "s2"));
		ApprovalRequest askedForOtherSession = this.provider.next();
		assertThat(askedForOtherSession.sessionId()).isEqualTo("s2");
		this.store.decide(askedAgain.id(), ApprovalDecision.deny("alice", "no"), this.clock.instant());
		this.store.decide(askedForOtherSession.id(), ApprovalDecision.deny("alice", "no"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> otherArguments.get(5, TimeUnit.SECONDS));
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> otherSession.get(5, TimeUnit.SECONDS));
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void approvalForTheSessionWithToolScopeCoversOtherArgumentsUntilItExpires() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().grantTtl(Duration.ofMinutes(30)).build());
		Future<Object> first = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.approveForSession("alice", GrantScope.TOOL),
				this.clock.instant());
		first.get(5, TimeUnit.SECONDS);
		assertThat(pipeline.call(call("b.txt", "s1"))).isEqualTo("deleted b.txt");
		this.clock.advance(Duration.ofMinutes(30));
		Future<Object> afterExpiry = callAsync(pipeline, call("c.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.approve("alice"), this.clock.instant());
		afterExpiry.get(5, TimeUnit.SECONDS);
		assertThat(this.provider.asked).hasValue(2);
	}

	@Test
	void sameCallDeniedEarlierInTheSessionIsDeniedAgainAtOnceWithinTheWindow() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().denyRepeatWindow(Duration.ofMinutes(5)).build());
		Future<Object> first = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.deny("alice", "keep it"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> first.get(5, TimeUnit.SECONDS));

		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a.txt", "s1")))
			.withMessage("Call of tool 'delete_file' was denied by approval: the same call was denied by alice "
					+ "earlier in this session: keep it")
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.REPEATED_DENIAL));
		assertThat(this.provider.asked).hasValue(1);

		this.clock.advance(Duration.ofMinutes(6));
		Future<Object> afterWindow = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.approve("alice"), this.clock.instant());
		assertThat(afterWindow.get(5, TimeUnit.SECONDS)).isEqualTo("deleted a.txt");
	}

	@Test
	void changedArgumentsAreBoundAgainAndTheToolRunsWithThem() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> result = callAsync(pipeline, call("important.txt", "s1"));
		this.store.decide(this.provider.next().id(),
				ApprovalDecision.approveWithArguments("alice", "{\"path\":\"tmp/copy.txt\"}"), this.clock.instant());
		assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("deleted tmp/copy.txt");
		assertThat(this.ranWith).containsExactly(Map.of("path", "tmp/copy.txt"));
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.APPROVED_WITH_CHANGES);
	}

	@Test
	void invalidChangedArgumentsAreRefusedAndTheToolNeverRuns() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> result = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(),
				ApprovalDecision.approveWithArguments("alice", "{\"path\":\"../etc\"}"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> result.get(5, TimeUnit.SECONDS))
			.havingCause()
			.withMessageContaining("the arguments alice changed were refused");
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void parallelWaitingCallsAreDecidedIndependently() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> first = callAsync(pipeline, call("one.txt", "s1"));
		Future<Object> second = callAsync(pipeline, call("two.txt", "s1"));
		ApprovalRequest a = this.provider.next();
		ApprovalRequest b = this.provider.next();
		ApprovalRequest one = a.summary().contains("one.txt") ? a : b;
		ApprovalRequest two = (one == a) ? b : a;
		assertThat(this.store.pending(this.clock.instant())).hasSize(2);
		this.store.decide(one.id(), ApprovalDecision.deny("alice", "not this one"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> first.get(5, TimeUnit.SECONDS));
		assertThat(second.isDone()).isFalse();
		assertThat(this.store.pending(this.clock.instant())).containsExactly(two);
		this.store.decide(two.id(), ApprovalDecision.approve("alice"), this.clock.instant());
		assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("deleted two.txt");
		assertThat(this.ranWith).containsExactly(Map.of("path", "two.txt"));
	}

	@Test
	void theMiddlewareCountsOnlyRequestsSoThatEachOutcomeIsCountedOnceByItsListener() throws Exception {
		List<String> counted = new CopyOnWriteArrayList<>();
		ToolPipeline pipeline = pipeline(
				middleware().metrics((event, toolName) -> counted.add(event.meterName() + " " + toolName)).build());
		Future<Object> approved = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.approve("alice"), this.clock.instant());
		assertThat(approved.get(5, TimeUnit.SECONDS)).isEqualTo("deleted a.txt");
		Future<Object> denied = callAsync(pipeline, call("b.txt", "s1"));
		this.store.decide(this.provider.next().id(), ApprovalDecision.deny("alice", "no"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> denied.get(5, TimeUnit.SECONDS));
		assertThat(counted).containsExactly("agent.tool.approvals.requested delete_file",
				"agent.tool.approvals.requested delete_file");
		assertThat(this.audited).extracting(ApprovalAuditRecord::outcome)
			.containsExactly(ApprovalOutcome.APPROVED, ApprovalOutcome.DENIED);
	}

	@Test
	void theArgumentsHashIsTheSha256OfTheCanonicalJsonAsStoredBefore() throws Exception {
		ApprovalArguments arguments = new ApprovalArguments(
				dev.agentmiddleware.redaction.SecretRedactor.withDefaults());
		java.security.MessageDigest sha256 = java.security.MessageDigest.getInstance("SHA-256");
		String canonical = "{\"nested\":{\"a\":[1,2.5,\"x\"],\"z\":true},\"path\":\"a.txt\"}";
		assertThat(arguments.hash(Map.of("path", "a.txt", "nested", Map.of("z", true, "a", List.of(1, 2.5, "x")))))
			.isEqualTo(java.util.HexFormat.of()
				.formatHex(sha256.digest(canonical.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
	}

	@Test
	void requestShowsRedactedArgumentsAndHashesTheExactOnes() {
		ApprovalArguments arguments = new ApprovalArguments(
				dev.agentmiddleware.redaction.SecretRedactor.withDefaults());
		Map<String, Object> one = new LinkedHashMap<>();
		one.put("path", "a.txt");
		one.put("apiToken", "s3cr3t");
		one.put("nested", Map.of("z", 1, "a", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"));
		Map<String, Object> reordered = new LinkedHashMap<>();
		reordered.put("nested", Map.of("a", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "z", 1));
		reordered.put("apiToken", "s3cr3t");
		reordered.put("path", "a.txt");
		assertThat(arguments.redactedJson(one)).isEqualTo(
				"{\"apiToken\":\"[REDACTED]\",\"nested\":{\"a\":\"Bearer [REDACTED]\",\"z\":1},\"path\":\"a.txt\"}");
		assertThat(arguments.hash(one)).isEqualTo(arguments.hash(reordered)).hasSize(64);
		assertThat(arguments.hash(Map.of("path", "a.txt", "apiToken", "other"))).isNotEqualTo(arguments.hash(one));
	}

	/**
	 * Hands each request to the test and never decides itself: decisions come through the
	 * store, like the queue.
	 */
	static final class CapturingProvider implements ApprovalProvider {

		final BlockingQueue<ApprovalRequest> requests = new LinkedBlockingQueue<>();

		final AtomicInteger asked = new AtomicInteger();

		private final Consumer<ApprovalRequest> onRequest;

		CapturingProvider() {
			this((request) -> {
			});
		}

		CapturingProvider(Consumer<ApprovalRequest> onRequest) {
			this.onRequest = onRequest;
		}

		@Override
		public String name() {
			return "capturing";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			this.asked.incrementAndGet();
			this.onRequest.accept(request);
			this.requests.add(request);
			return new CompletableFuture<>();
		}

		ApprovalRequest next() throws InterruptedException {
			ApprovalRequest request = this.requests.poll(5, TimeUnit.SECONDS);
			assertThat(request).as("an approval request").isNotNull();
			return request;
		}

	}

	record FixedProvider(java.util.function.Function<ApprovalRequest, CompletionStage<ApprovalDecision>> answer)
			implements
				ApprovalProvider {

		@Override
		public String name() {
			return "fixed";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			return this.answer.apply(request);
		}

	}

	@Test
	void compositeUsesTheFirstProviderThatSupportsTheCall() {
		ApprovalProvider mcpOnly = new ApprovalProvider() {

			@Override
			public String name() {
				return "mcp-only";
			}

			@Override
			public boolean supports(ToolInvocation invocation) {
				return invocation.source() == dev.agentmiddleware.tool.InvocationSource.MCP;
			}

			@Override
			public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request,
					ToolInvocation invocation) {
				return CompletableFuture.completedFuture(ApprovalDecision.approve("mcp"));
			}

		};
		CompositeApprovalProvider composite = new CompositeApprovalProvider(List.of(mcpOnly, this.provider));
		assertThat(composite.select(call("a", "s")).name()).isEqualTo("capturing");
		assertThat(composite
			.select(call("a", "s").withAttribute(dev.agentmiddleware.tool.InvocationAttribute.of("x", String.class),
					"y"))
			.name()).isEqualTo("capturing");
		assertThat(new CompositeApprovalProvider(List.of(mcpOnly)).select(call("a", "s")))
			.isSameAs(NoApproverProvider.INSTANCE);
		assertThat(Set.of(composite.providers().get(0).name())).containsExactly("mcp-only");
	}

	@Test
	void providerThatAnswersWithoutADecisionDenies() {
		ApprovalProvider empty = new FixedProvider((request) -> CompletableFuture.completedFuture(null));
		ToolPipeline pipeline = pipeline(middleware().provider(empty).build());
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call("a", "s1")))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.PROVIDER_FAILED));
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void interruptedWaitingCallIsCancelledAndItsRequestCannotBeApprovedLater() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().build());
		Future<Object> waiting = callAsync(pipeline, call("a.txt", "s1"));
		ApprovalRequest request = this.provider.next();
		waiting.cancel(true);
		this.callers.shutdown();
		assertThat(this.callers.awaitTermination(5, TimeUnit.SECONDS)).as("the interrupted call ends").isTrue();
		assertThat(this.store.auditTrail(1).get(0).outcome()).isEqualTo(ApprovalOutcome.CANCELLED);
		assertThat(this.store.decide(request.id(), ApprovalDecision.approve("alice"), this.clock.instant()))
			.isEqualTo(ApprovalStore.DecideResult.ALREADY_DECIDED);
		assertThat(this.runs).hasValue(0);
	}

	@Test
	void changedArgumentsAreRefusedWhenTheyCannotBeChecked() throws Exception {
		ToolPipeline pipeline = pipeline(middleware().argumentsBinder(ArgumentsBinder.NONE).build());
		Future<Object> result = callAsync(pipeline, call("a.txt", "s1"));
		this.store.decide(this.provider.next().id(),
				ApprovalDecision.approveWithArguments("alice", "{\"path\":\"b.txt\"}"), this.clock.instant());
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> result.get(5, TimeUnit.SECONDS))
			.havingCause()
			.withMessageContaining("changed arguments cannot be checked");
		assertThat(this.runs).hasValue(0);
	}

}
