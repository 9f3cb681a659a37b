package dev.agentmiddleware.tool;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CallTraceTests {

	private final CallTrace trace = new CallTrace();

	@Test
	void aReturnedCallSucceededWhenTheToolRanAndWasShortCircuitedOtherwise() {
		assertThat(this.trace.returnedOutcome()).isEqualTo(CallOutcome.SHORT_CIRCUITED);
		this.trace.markToolExecuted();
		assertThat(this.trace.returnedOutcome()).isEqualTo(CallOutcome.SUCCEEDED);
		assertThat(this.trace.returnedDecidedBy()).isNull();
	}

	@Test
	void aReportedDecisionIsTheOutcomeOfAReturnedCall() {
		this.trace.decide(CallOutcome.CACHED, "cache");
		assertThat(this.trace.returnedOutcome()).isEqualTo(CallOutcome.CACHED);
		assertThat(this.trace.returnedDecidedBy()).isEqualTo("cache");
	}

	@Test
	void aFailureReportedByAHookThatWasRecoveredFromDoesNotDecideAReturnedCall() {
		this.trace.decide(CallOutcome.FAILED, "audit");
		this.trace.markToolExecuted();
		assertThat(this.trace.returnedOutcome()).isEqualTo(CallOutcome.SUCCEEDED);
		assertThat(this.trace.returnedDecidedBy()).isNull();
	}

	@Test
	void aFailedCallTakesItsOutcomeAndDecidingMiddlewareFromTheException() {
		ToolRateLimitedException limited = new ToolRateLimitedException("t", "rate-limit", "1/s", Duration.ofSeconds(1));
		assertThat(CallOutcome.ofFailure(limited)).isEqualTo(CallOutcome.RATE_LIMITED);
		assertThat(CallOutcome.ofFailure(new ToolDeniedException("t", "approval", "no"))).isEqualTo(CallOutcome.DENIED);
		assertThat(CallOutcome.ofFailure(new ToolTimeoutException("t", "timeout", Duration.ofSeconds(1))))
			.isEqualTo(CallOutcome.TIMED_OUT);
		assertThat(CallOutcome.ofFailure(new IllegalStateException())).isEqualTo(CallOutcome.FAILED);
		this.trace.decide(CallOutcome.DENIED, "policy");
		assertThat(this.trace.failedDecidedBy(limited)).isEqualTo("rate-limit");
		assertThat(this.trace.failedDecidedBy(new IllegalStateException())).isEqualTo("policy");
	}

}
