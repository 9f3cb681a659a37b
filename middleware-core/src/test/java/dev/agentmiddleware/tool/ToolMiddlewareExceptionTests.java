package dev.agentmiddleware.tool;

import java.time.Duration;
import java.util.List;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy;
import dev.agentmiddleware.timeout.ToolTimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolMiddlewareExceptionTests {

	@Test
	void rateLimitedMessageNamesToolAndLimitAndSaysWhenToRetry() {
		ToolRateLimitedException ex = new ToolRateLimitedException("get_weather", "rate-limit",
				"5 calls per 1m per session", Duration.ofSeconds(12));
		assertThat(ex.getMessage()).contains("'get_weather'", "5 calls per 1m per session", "retry in about 12s");
		assertThat(ex.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
		assertThat(ex.decidedBy()).isEqualTo("rate-limit");
		assertThat(ex.toolName()).isEqualTo("get_weather");
		assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(12));
	}

	@Test
	void rateLimitedMessageGivesNoRetryHintWhenWaitingDoesNotHelp() {
		ToolRateLimitedException ex = new ToolRateLimitedException("search", "rate-limit",
				"budget of 20 calls per session used up", Duration.ZERO);
		assertThat(ex.getMessage()).isEqualTo("Tool 'search' is rate limited (budget of 20 calls per session used up)");
	}

	@Test
	void deniedMessageNamesToolDeciderAndReason() {
		ToolDeniedException ex = new ToolDeniedException("delete_file", "approval", "keep the logs");
		assertThat(ex.getMessage()).isEqualTo("Call of tool 'delete_file' was denied by approval: keep the logs");
		assertThat(ex.outcome()).isEqualTo(CallOutcome.DENIED);
		assertThat(ex.reason()).isEqualTo("keep the logs");
	}

	@Test
	void timeoutMessageNamesToolAndTimeout() {
		ToolTimeoutException ex = new ToolTimeoutException("crawl", "timeout", Duration.ofSeconds(30));
		assertThat(ex.getMessage()).contains("'crawl'", "timed out after 30s");
		assertThat(ex.outcome()).isEqualTo(CallOutcome.TIMED_OUT);
	}

	@Test
	void invalidArgumentsMessageNamesToolParameterAndProblem() {
		InvalidToolArgumentsException ex = new InvalidToolArgumentsException("get_weather", "days",
				"expected an integer but got a string");
		assertThat(ex.getMessage()).isEqualTo(
				"Invalid arguments for tool 'get_weather', parameter 'days': expected an integer but got a string");
		assertThat(ex.parameter()).isEqualTo("days");
		assertThat(new InvalidToolArgumentsException("get_weather", null, "malformed JSON").getMessage())
			.isEqualTo("Invalid arguments for tool 'get_weather': malformed JSON");
	}

	@Test
	void unknownToolMessageListsTheKnownTools() {
		assertThat(new UnknownToolException("get_wether", List.of("get_weather", "echo")).getMessage())
			.isEqualTo("No tool named 'get_wether'; known tools: get_weather, echo");
	}

	@Test
	void contractViolationNamesTheMiddlewareAndFailsTheCall() {
		ToolContractViolationException ex = new ToolContractViolationException("count", "cache", "returned null");
		assertThat(ex.getMessage()).isEqualTo("Middleware 'cache' broke the contract of tool 'count': returned null");
		assertThat(ex.decidedBy()).isEqualTo("cache");
		assertThat(ex.outcome()).isEqualTo(CallOutcome.FAILED);
	}

	@Test
	void policyDecisionsCarryNoStackTrace() {
		assertThat(new ToolDeniedException("t", "approval", "no").getStackTrace()).isEmpty();
		assertThat(new ToolRateLimitedException("t", "rate-limit", "1 call per 1s", Duration.ZERO).getStackTrace())
			.isEmpty();
		assertThat(new ToolContractViolationException("t", "m", "bad").getStackTrace()).isNotEmpty();
	}

	@Test
	void outcomeTagValueIsLowerCase() {
		assertThat(CallOutcome.RATE_LIMITED.tagValue()).isEqualTo("rate_limited");
	}

	@Test
	void signalsAToolThrowsAreNotChainFailures() {
		for (ToolSignalException signal : List.of(new TransientToolException("busy"),
				new ToolSessionCrashedException("browser died"))) {
			assertThat(signal).isNotInstanceOf(ToolMiddlewareException.class);
			assertThat(CallOutcome.ofFailure(signal)).isEqualTo(CallOutcome.FAILED);
		}
	}

	@Test
	void aTransientSignalIsNoCrashEvenWhenEveryRuntimeExceptionIs() {
		CrashRecoveryPolicy everything = new CrashRecoveryPolicy(List.of(), true);
		assertThat(everything.isCrash(new TransientToolException("busy"))).isFalse();
		assertThat(everything.isCrash(new ToolSessionCrashedException("gone"))).isTrue();
		assertThat(everything.isCrash(new IllegalStateException("panic"))).isTrue();
	}

}
