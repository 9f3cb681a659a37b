package dev.agentmiddleware.chain;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.logging.LoggingPolicy;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InvalidPolicyExceptionTests {

	@Test
	void retryPolicyNamesTheInvalidComponent() {
		RetryPolicy defaults = RetryPolicy.defaults();
		assertNames("maxAttempts", () -> defaults.withMaxAttempts(0));
		assertNames("initialBackoff", () -> defaults.withBackoff(Duration.ZERO, 2.0, Duration.ofSeconds(1)));
		assertNames("multiplier", () -> defaults.withBackoff(Duration.ofMillis(10), 0.5, Duration.ofSeconds(1)));
		assertNames("maxBackoff", () -> defaults.withBackoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(1)));
		assertNames("jitter", () -> defaults.withJitter(1.0));
		assertNames("retryOn", () -> defaults.withRetryOn(List.of((Class) String.class)));
	}

	@Test
	void cacheTimeoutLoggingAndAuthorizationPoliciesNameTheInvalidComponent() {
		assertNames("ttl", () -> new CachePolicy(Duration.ZERO, 1, CacheScope.SESSION));
		assertNames("maxSize", () -> new CachePolicy(Duration.ofMinutes(1), 0, CacheScope.SESSION));
		assertNames("timeout", () -> TimeoutPolicy.of(Duration.ofSeconds(-1)));
		assertNames("maxValueLength", () -> new LoggingPolicy(2, true));
		assertNames("authorities", () -> new AuthorizationPolicy(Set.of()));
	}

	@Test
	void rateLimitPolicyNamesTheInvalidComponent() {
		Duration minute = Duration.ofMinutes(1);
		assertNames("limitForPeriod", () -> new RateLimitPolicy(0, minute, Duration.ZERO, RateLimitKey.TOOL, null));
		assertNames("limitRefreshPeriod",
				() -> new RateLimitPolicy(1, Duration.ZERO, Duration.ZERO, RateLimitKey.TOOL, null));
		assertNames("maxWait", () -> new RateLimitPolicy(1, minute, Duration.ofSeconds(-1), RateLimitKey.TOOL, null));
		assertNames("maxCallsPerSession", () -> new RateLimitPolicy(1, minute, Duration.ZERO, RateLimitKey.TOOL, 0));
	}

	@Test
	void loopGuardPolicyNamesTheFirstNegativeLimit() {
		assertNames("maxToolCallsPerRun", () -> new LoopGuardPolicy(1, -1, 0, -1));
		assertNames("maxRepeatedCalls", () -> new LoopGuardPolicy(0, 0, 0, -3));
	}

	@Test
	void isAnIllegalArgumentExceptionForCodeThatCatchesThat() {
		assertThatThrownBy(() -> RetryPolicy.defaults().withMaxAttempts(0)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("maxAttempts must be at least 1, was 0");
	}

	private static void assertNames(String setting, ThrowingCallable invalid) {
		assertThatThrownBy(invalid).isInstanceOfSatisfying(InvalidPolicyException.class,
				(ex) -> assertThat(ex.setting()).isEqualTo(setting));
	}

}
