package dev.agentmiddleware.chain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolCallTests {

	private static final ToolDescriptor ECHO = ToolDescriptor.builder("echo").build();

	private final List<Ended> ended = new ArrayList<>();

	@Test
	void outsideAPipelineTheCurrentCallIsInertAndReportingCostsNothing() {
		ToolCall call = ToolCall.current();
		call.decide(CallOutcome.CACHED, "cache");
		assertThat(call.isRecording()).isFalse();
		assertThat(call.decidedOutcome()).isNull();
		assertThat(call.decidedBy()).isNull();
		assertThat(ToolCall.current()).isSameAs(call);
	}

	@Test
	void aReturnedCallSucceededWhenTheToolRanAndWasShortCircuitedOtherwise() throws Exception {
		observe(ToolCall.markingExecution(ECHO, (invocation) -> "ran"));
		observe((invocation) -> "answered");
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.SUCCEEDED, null, "ran", null),
				new Ended(CallOutcome.SHORT_CIRCUITED, null, "answered", null));
	}

	@Test
	void aReportedDecisionIsTheOutcomeOfAReturnedCallAndTheFirstReportWins() throws Exception {
		observe((invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			ToolCall.current().decide(CallOutcome.SHORT_CIRCUITED, "outer");
			return "cached";
		});
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.CACHED, "cache", "cached", null));
	}

	@Test
	void aFailureReportedByAHookThatWasRecoveredFromDoesNotDecideAReturnedCall() throws Exception {
		observe(ToolCall.markingExecution(ECHO, (invocation) -> {
			ToolCall.current().decide(CallOutcome.FAILED, "audit");
			return "ran";
		}));
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.SUCCEEDED, null, "ran", null));
	}

	@Test
	void aFailedCallTakesItsOutcomeAndDecidingMiddlewareFromTheException() {
		ToolRateLimitedException limited = new ToolRateLimitedException("t", "rate-limit", "1/s",
				Duration.ofSeconds(1));
		assertThat(CallOutcome.ofFailure(limited)).isEqualTo(CallOutcome.RATE_LIMITED);
		assertThat(CallOutcome.ofFailure(new ToolDeniedException("t", "approval", "no"))).isEqualTo(CallOutcome.DENIED);
		assertThat(CallOutcome.ofFailure(new ToolTimeoutException("t", "timeout", Duration.ofSeconds(1))))
			.isEqualTo(CallOutcome.TIMED_OUT);
		assertThat(CallOutcome.ofFailure(new IllegalStateException())).isEqualTo(CallOutcome.FAILED);
		IllegalStateException crash = new IllegalStateException("crash");
		for (Exception error : List.of(limited, crash)) {
			try {
				observe((invocation) -> {
					ToolCall.current().decide(CallOutcome.DENIED, "policy");
					throw error;
				});
			}
			catch (Exception expected) {
				assertThat(expected).isSameAs(error);
			}
		}
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.RATE_LIMITED, "rate-limit", null, limited),
				new Ended(CallOutcome.FAILED, "policy", null, crash));
	}

	@Test
	void nestedReadersShareTheCallTheOutermostCreated() throws Exception {
		List<ToolCall> seen = new ArrayList<>();
		observe((outer) -> ToolCall.observe(outer, (inner) -> {
			seen.add(ToolCall.current());
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "cached";
		}, this::ended, "inner"));
		assertThat(seen).singleElement().satisfies((call) -> assertThat(call.isRecording()).isTrue());
		assertThat(this.ended).hasSize(2)
			.allSatisfy((each) -> assertThat(each.outcome()).isEqualTo(CallOutcome.CACHED));
		assertThat(ToolCall.current().isRecording()).isFalse();
	}

	@Test
	void wrapCarriesTheCallToAnotherThread() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			observe((invocation) -> executor.submit(ToolCall.current().wrap(() -> {
				ToolCall.current().decide(CallOutcome.SHORT_CIRCUITED, "elsewhere");
				return "done";
			})).get());
			assertThat(executor.submit(() -> ToolCall.current().isRecording()).get()).isFalse();
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.SHORT_CIRCUITED, "elsewhere", "done", null));
	}

	@Test
	void aPipelineEnteredFromAToolGetsACallOfItsOwn() throws Exception {
		ToolDescriptor inner = ToolDescriptor.builder("inner").build();
		ToolPipeline innerPipeline = ToolPipeline.builder(inner, (invocation) -> "inner result")
			.middleware(ToolMiddleware.named("inner-cache", (tool, next) -> (invocation) -> {
				ToolCall.current().decide(CallOutcome.CACHED, "inner-cache");
				return ToolCall.observe(invocation, next, (attachment, call, outcome, decidedBy, result, error) -> {
				}, "ignored");
			}))
			.build();
		observe(ToolCall.markingExecution(ECHO,
				(invocation) -> innerPipeline.call(ToolInvocation.builder(inner).build()) + " used"));
		assertThat(this.ended).containsExactly(new Ended(CallOutcome.SUCCEEDED, null, "inner result used", null));
	}

	@Test
	void anInterceptorThatSkipsOutsideAnyReaderLeavesTheInertCallUntouched() throws Exception {
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, (invocation) -> "ran").interceptor(new ToolInterceptor() {

			@Override
			public BeforeDecision beforeInvocation(ToolInvocation invocation) {
				return BeforeDecision.skip("skipped");
			}

		}).build();
		assertThat(pipeline.call(ToolInvocation.builder(ECHO).build())).isEqualTo("skipped");
		assertThat(ToolCall.current().isRecording()).isFalse();
		assertThat(ToolCall.current().decidedOutcome()).isNull();
	}

	@Test
	void theInvocationCarriesNoCallState() {
		assertThat(ToolInvocation.class.getMethods()).extracting(java.lang.reflect.Method::getName)
			.doesNotContain("trace", "withTrace", "reportDecision");
	}

	@Test
	void theListenerGetsItsAttachmentAndTheInvocationBack() throws Exception {
		ToolInvocation invocation = ToolInvocation.builder(ECHO).build();
		List<Object> seen = new ArrayList<>();
		ToolCall.observe(invocation, (inner) -> "done", (attachment, observed, outcome, decidedBy, result, error) -> {
			seen.add(attachment);
			seen.add(observed);
		}, "attachment");
		assertThat(seen).containsExactly("attachment", invocation);
	}

	private void observe(ToolHandler next) throws Exception {
		ToolCall.observe(ToolInvocation.builder(ECHO).build(), next, this::ended, "outer");
	}

	private void ended(String attachment, ToolInvocation invocation, CallOutcome outcome, @Nullable String decidedBy,
			@Nullable Object result, @Nullable Throwable error) {
		this.ended.add(new Ended(outcome, decidedBy, result, error));
	}

	private record Ended(CallOutcome outcome, @Nullable String decidedBy, @Nullable Object result,
			@Nullable Throwable error) {
	}

}
