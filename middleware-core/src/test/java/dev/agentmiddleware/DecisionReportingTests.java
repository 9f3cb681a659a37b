package dev.agentmiddleware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolInterceptor;
import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.recovery.CrashRecoveryMiddleware;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import dev.agentmiddleware.tool.TransientToolException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every built-in's decision reaches the three readers of outcomes (the observer tier,
 * logging and observation) exactly once per call, through the one running
 * {@link dev.agentmiddleware.chain.ToolCall}.
 */
class DecisionReportingTests {

	private static final ToolDescriptor TOOL = ToolDescriptor.builder("read_page").readOnly(true).build();

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.INFO);

	private final List<ToolCallRecord> records = Collections.synchronizedList(new ArrayList<>());

	private final List<String> observed = Collections.synchronizedList(new ArrayList<>());

	private final ObservationRegistry registry = ObservationRegistry.create();

	@BeforeEach
	void listen() {
		this.registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onStop(Observation.Context context) {
				DecisionReportingTests.this.observed
					.add(context.getLowCardinalityKeyValue("agent.tool.outcome").getValue());
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
	}

	static Stream<Case> builtIns() {
		return Stream.of(new Case("cache", CallOutcome.CACHED, "cache", 2,
				CacheMiddleware.builder().policies((tool) -> CachePolicy.DEFAULT).build(), (invocation) -> "page"),
				new Case("rate limit", CallOutcome.RATE_LIMITED, "rate-limit", 2,
						RateLimitMiddleware.builder()
							.policies((tool) -> RateLimitPolicy.of(1, Duration.ofMinutes(1)))
							.build(),
						(invocation) -> "page"),
				new Case("timeout", CallOutcome.TIMED_OUT, "timeout", 1,
						TimeoutMiddleware.builder().policies((tool) -> TimeoutPolicy.of(Duration.ofMillis(20))).build(),
						(invocation) -> {
							new CountDownLatch(1).await(10, TimeUnit.SECONDS);
							return "late";
						}),
				new Case("interceptor skip", CallOutcome.SHORT_CIRCUITED, "canned", 1, new ToolInterceptor() {

					@Override
					public BeforeDecision beforeInvocation(ToolInvocation invocation) {
						return BeforeDecision.skip("canned page");
					}

					@Override
					public String name() {
						return "canned";
					}

				}.asMiddleware(), (invocation) -> "page"), new Case("denial", CallOutcome.DENIED, "policy", 1,
						ToolMiddleware.named("policy", (tool, next) -> (invocation) -> {
							throw new ToolDeniedException(invocation.toolName(), "policy", "not on the allow list");
						}), (invocation) -> "page"),
				new Case("authorization", CallOutcome.FORBIDDEN, "authorization", 1,
						AuthorizationMiddleware.builder()
							.policies((tool) -> AuthorizationPolicy.of("SCOPE_pages.read"))
							.build(),
						(invocation) -> "page"),
				new Case("retry", CallOutcome.SUCCEEDED, null, 1,
						RetryMiddleware.builder()
							.policies((tool) -> RetryPolicy.defaults().withJitter(0))
							.sleeper((duration) -> {
							})
							.build(),
						failingFirst(new TransientToolException("flaky"))),
				new Case("crash recovery", CallOutcome.SUCCEEDED, null, 1,
						CrashRecoveryMiddleware.builder()
							.policies((tool) -> CrashRecoveryPolicy.DEFAULT)
							.sessionReset((invocation, crash) -> {
							})
							.build(),
						failingFirst(new ToolSessionCrashedException("browser died"))));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("builtIns")
	void eachDecisionReachesObserversLoggingAndObservationExactlyOnce(Case decision) throws Exception {
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(this.records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(TOOL, decision.tool())
				.middleware(List.of(ObservationMiddleware.of(this.registry), LoggingMiddleware.builder().build(),
						decision.middleware()))
				.observers(observers)
				.build();
			for (int i = 0; i < decision.calls(); i++) {
				try {
					pipeline.call(ToolInvocation.builder(TOOL)
						.argument("url", "https://example.org")
						.sessionId("s-1")
						.build());
				}
				catch (Exception expected) {
					// refusals are part of the case
				}
			}
		}
		finally {
			if (decision.middleware() instanceof AutoCloseable closeable) {
				closeable.close();
			}
		}
		assertThat(this.records).hasSize(decision.calls());
		assertThat(this.capturedLog.events()).hasSize(decision.calls());
		assertThat(this.observed).hasSize(decision.calls());
		assertThat(this.records).filteredOn((record) -> record.outcome() == decision.outcome())
			.singleElement()
			.satisfies((record) -> assertThat(record.decidedBy()).isEqualTo(decision.decidedBy()));
		String logged = "outcome=" + decision.outcome().tagValue()
				+ ((decision.decidedBy() != null) ? " decided_by=" + decision.decidedBy() + " " : " duration_ms");
		assertThat(this.capturedLog.events()).filteredOn((event) -> event.getFormattedMessage().contains(logged))
			.hasSize(1);
		assertThat(this.observed).filteredOn(decision.outcome().tagValue()::equals).hasSize(1);
	}

	@Test
	void theToolGetsTheCallersInvocationItselfThroughEveryReaderOfOutcomes() throws Exception {
		List<ToolInvocation> received = new ArrayList<>();
		ToolInterceptor audit = new ToolInterceptor() {
		};
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(this.records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(TOOL, (invocation) -> {
				received.add(invocation);
				return "page";
			})
				.middleware(List.of(ObservationMiddleware.of(this.registry), LoggingMiddleware.builder().build(),
						audit.asMiddleware()))
				.observers(observers)
				.build();
			ToolInvocation invocation = ToolInvocation.builder(TOOL).argument("url", "https://example.org").build();
			pipeline.call(invocation);
			assertThat(received).singleElement().isSameAs(invocation);
		}
		assertThat(this.records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
			assertThat(record.decidedBy()).isNull();
		});
	}

	private static ToolCallObserver synchronous(List<ToolCallRecord> records) {
		return new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		};
	}

	private static ToolHandler failingFirst(Exception failure) {
		AtomicInteger attempts = new AtomicInteger();
		return (invocation) -> {
			if (attempts.incrementAndGet() == 1) {
				throw failure;
			}
			return "page";
		};
	}

	record Case(String name, CallOutcome outcome, @Nullable String decidedBy, int calls, ToolMiddleware middleware,
			ToolHandler tool) {

		@Override
		public String toString() {
			return this.name;
		}

	}

}
