package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A call waiting for approval tells a caller that asked for progress what it waits for,
 * once per interval. Time passes on an injected clock: the store lets each wait run to
 * its deadline on the clock, and decides when the test says.
 */
class ApprovalProgressTests {

	private static final ToolDescriptor DELETE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

	private final ClockedStore store = new ClockedStore(this.clock);

	private final List<Sent> sent = new CopyOnWriteArrayList<>();

	private final List<String> toolRuns = new CopyOnWriteArrayList<>();

	private ToolPipeline pipeline(Consumer<ToolInvocation> tool) {
		ApprovalMiddleware approval = ApprovalMiddleware.builder()
			.clock(this.clock)
			.store(this.store)
			.provider(new AskingProvider())
			.timeout(Duration.ofMinutes(2))
			.build();
		return ToolPipeline.chain(new ExecutableTool(DELETE, (invocation) -> {
			tool.accept(invocation);
			this.toolRuns.add((String) invocation.argument("path"));
			return "deleted";
		}), approval);
	}

	private ToolInvocation call(@Nullable Duration interval) {
		ToolInvocation invocation = ToolInvocation.builder(DELETE)
			.argument("path", "notes.txt")
			.sessionId("s1")
			.build();
		if (interval == null) {
			return invocation;
		}
		return invocation.withAttribute(ProgressTarget.ATTRIBUTE, ProgressTarget
			.of((progress, total, message) -> this.sent.add(new Sent(progress, total, message)), interval, this.clock));
	}

	@Test
	void waitingCallIsToldWhatItWaitsForOncePerIntervalUntilApproved() throws Exception {
		this.store.decideInRound(3, ApprovalDecision.approve("alice"));
		Object result = pipeline((invocation) -> {
		}).call(call(Duration.ofSeconds(5)));
		assertThat(result).isEqualTo("deleted");
		assertThat(this.sent).containsExactly(new Sent(0, 120.0, "waiting for approval of delete_file, 120 s left"),
				new Sent(5, 120.0, "waiting for approval of delete_file, 115 s left"),
				new Sent(10, 120.0, "waiting for approval of delete_file, 110 s left"));
		assertThat(this.store.deadlines).containsExactly(at(5), at(10), at(15));
	}

	@Test
	void waitThatTimesOutReportsUntilItsEndAndIsDenied() {
		ToolPipeline pipeline = pipeline((invocation) -> {
		});
		assertThatExceptionOfType(ApprovalDeniedException.class)
			.isThrownBy(() -> pipeline.call(call(Duration.ofSeconds(50))))
			.satisfies((ex) -> assertThat(ex.approvalOutcome()).isEqualTo(ApprovalOutcome.TIMED_OUT));
		assertThat(this.sent).extracting(Sent::progress).containsExactly(0.0, 50.0, 100.0);
		assertThat(this.sent).extracting(Sent::message)
			.containsExactly("waiting for approval of delete_file, 120 s left",
					"waiting for approval of delete_file, 70 s left", "waiting for approval of delete_file, 20 s left");
		assertThat(this.store.deadlines).containsExactly(at(50), at(100), at(120));
		assertThat(this.toolRuns).isEmpty();
	}

	@Test
	void callWithoutAProgressTargetWaitsOnceForTheWholeTimeoutAndReportsNothing() {
		ToolPipeline pipeline = pipeline((invocation) -> {
		});
		assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> pipeline.call(call(null)));
		assertThat(this.store.deadlines).containsExactly(at(120));
		assertThat(this.sent).isEmpty();
	}

	@Test
	void toolsOwnProgressGoesOnFromTheWaitsAtTheSameRate() throws Exception {
		this.store.decideInRound(3, ApprovalDecision.approve("alice"));
		pipeline((invocation) -> {
			ProgressTarget.Reporter progress = invocation.attribute(ProgressTarget.ATTRIBUTE).reporter();
			progress.report(1, 4, "1 of 4 files");
			this.clock.advance(Duration.ofSeconds(5));
			progress.report(2, 4, "2 of 4 files");
		}).call(call(Duration.ofSeconds(5)));
		assertThat(this.sent).extracting(Sent::message)
			.containsExactly("waiting for approval of delete_file, 120 s left",
					"waiting for approval of delete_file, 115 s left",
					"waiting for approval of delete_file, 110 s left", "2 of 4 files");
		assertThat(this.sent.get(3)).isEqualTo(new Sent(12, 14.0, "2 of 4 files"));
		assertThat(this.toolRuns).containsExactly("notes.txt");
	}

	private Instant at(long seconds) {
		return Instant.parse("2026-01-01T10:00:00Z").plusSeconds(seconds);
	}

	record Sent(double progress, @Nullable Double total, @Nullable String message) {
	}

	/**
	 * Asks nobody: the store decides.
	 */
	static final class AskingProvider implements ApprovalProvider {

		@Override
		public String name() {
			return "asking";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			return new CompletableFuture<>();
		}

	}

	/**
	 * An in-memory store in which each wait for a decision lasts until its deadline on
	 * the clock, unless the test decides the request in that round; it records the
	 * deadlines.
	 */
	static final class ClockedStore implements ApprovalStore {

		final List<Instant> deadlines = new CopyOnWriteArrayList<>();

		private final InMemoryApprovalStore delegate = new InMemoryApprovalStore();

		private final MutableClock clock;

		private int decideInRound;

		private @Nullable ApprovalDecision decision;

		ClockedStore(MutableClock clock) {
			this.clock = clock;
		}

		void decideInRound(int round, ApprovalDecision decision) {
			this.decideInRound = round;
			this.decision = decision;
		}

		@Override
		public Optional<ApprovalDecision> awaitDecision(String id, Instant deadline, Clock clock)
				throws InterruptedException {
			this.deadlines.add(deadline);
			if (this.deadlines.size() == this.decideInRound && this.decision != null) {
				this.delegate.decide(id, this.decision, this.clock.instant());
			}
			else {
				this.clock.advance(Duration.between(this.clock.instant(), deadline));
			}
			return this.delegate.awaitDecision(id, deadline, clock);
		}

		@Override
		public void add(ApprovalRequest request) {
			this.delegate.add(request);
		}

		@Override
		public List<ApprovalRequest> pending(Instant now) {
			return this.delegate.pending(now);
		}

		@Override
		public Optional<ApprovalRequest> find(String id) {
			return this.delegate.find(id);
		}

		@Override
		public DecideResult decide(String id, ApprovalDecision decision, Instant now) {
			return this.delegate.decide(id, decision, now);
		}

		@Override
		public ApprovalDecision close(String id, ApprovalDecision fallback, Instant now) {
			return this.delegate.close(id, fallback, now);
		}

		@Override
		public void grant(SessionGrant grant) {
			this.delegate.grant(grant);
		}

		@Override
		public Optional<SessionGrant> findGrant(String sessionId, String toolName, String argumentsHash, Instant now) {
			return this.delegate.findGrant(sessionId, toolName, argumentsHash, now);
		}

		@Override
		public void recordDenial(DeniedCall denial) {
			this.delegate.recordDenial(denial);
		}

		@Override
		public Optional<DeniedCall> findDenial(String sessionId, String toolName, String argumentsHash, Instant since) {
			return this.delegate.findDenial(sessionId, toolName, argumentsHash, since);
		}

		@Override
		public void audit(ApprovalAuditRecord record) {
			this.delegate.audit(record);
		}

		@Override
		public List<ApprovalAuditRecord> auditTrail(int limit) {
			return this.delegate.auditTrail(limit);
		}

	}

}
