package dev.agentmiddleware.autoconfigure;

import java.util.List;
import java.util.stream.Stream;

import dev.agentmiddleware.autoconfigure.authorization.AuthorizationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.recovery.CrashRecoveryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.timeout.ToolTimeoutAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.spring.AgentTool;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one rule every built-in follows: a tool listed under {@code tools} gets the
 * built-in unless it says {@code enabled: false}; any other tool follows
 * {@code defaults.enabled}, else the built-in's own rule; a listed tool the built-in
 * refuses for safety fails startup unless its entry says {@code enabled: true}.
 */
class EnabledRuleTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolCacheAutoConfiguration.class, ToolRetryAutoConfiguration.class,
				ToolRateLimitAutoConfiguration.class, ToolTimeoutAutoConfiguration.class,
				ToolLoggingAutoConfiguration.class, ToolObservationAutoConfiguration.class,
				CrashRecoveryAutoConfiguration.class, AuthorizationAutoConfiguration.class))
		.withUserConfiguration(OrderToolsConfiguration.class);

	/**
	 * Each built-in: its chain layer, its prefix, a setting that lists a tool without
	 * saying 'enabled', what the defaults need to apply at all, and whether its own rule
	 * applies it to the read-only tool.
	 */
	static Stream<Arguments> builtIns() {
		return Stream.of(Arguments.of("cache", "agent.middleware.cache", "ttl=1m", List.of(), true),
				Arguments.of("retry", "agent.middleware.retry", "max-attempts=2", List.of(), true),
				Arguments.of("rate-limit", "agent.middleware.rate-limit", "limit-for-period=5", List.of(), false),
				Arguments.of("timeout", "agent.middleware.timeout", "timeout=5s",
						List.of("agent.middleware.timeout.defaults.timeout=10s"), true),
				Arguments.of("logging", "agent.middleware.logging", "log-results=true", List.of(), true),
				Arguments.of("authorization", "agent.middleware.authorization", "authorities=ROLE_CLERK",
						List.of("agent.middleware.authorization.defaults.authorities=ROLE_STAFF"), true),
				Arguments.of("observation", "agent.middleware.observation", "enabled=true", List.of(), true),
				Arguments.of("crash-recovery", "agent.middleware.crash-recovery", "any-runtime-exception-is-crash=true",
						List.of(), false));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("builtIns")
	void aListedToolGetsTheBuiltInEvenWhenTheDefaultsAreOff(String layer, String prefix, String listing,
			List<String> defaults) {
		this.contextRunner
			.withPropertyValues(prefix + ".defaults.enabled=false", prefix + ".tools.lookup-order." + listing)
			.withPropertyValues(defaults.toArray(String[]::new))
			.run((context) -> {
				assertThat(layers(context, "lookup_order")).contains(layer);
				assertThat(layers(context, "list_orders")).doesNotContain(layer);
			});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("builtIns")
	void aToolListedWithEnabledFalseIsLeftOutEvenWhenTheDefaultsApply(String layer, String prefix, String listing,
			List<String> defaults) {
		this.contextRunner
			.withPropertyValues(prefix + ".defaults.enabled=true", prefix + ".tools.lookup-order.enabled=false")
			.withPropertyValues(defaults.toArray(String[]::new))
			.run((context) -> {
				assertThat(layers(context, "lookup_order")).doesNotContain(layer);
				assertThat(layers(context, "list_orders")).contains(layer);
			});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("builtIns")
	void anUnlistedToolFollowsTheBuiltInsOwnRule(String layer, String prefix, String listing, List<String> defaults,
			boolean appliesToReadOnlyTools) {
		this.contextRunner.withPropertyValues(defaults.toArray(String[]::new)).run((context) -> {
			assertThat(layers(context, "list_orders").contains(layer)).isEqualTo(appliesToReadOnlyTools);
		});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("builtIns")
	void anUnlistedToolFollowsDefaultsEnabledWhenSet(String layer, String prefix, String listing,
			List<String> defaults) {
		this.contextRunner.withPropertyValues(prefix + ".defaults.enabled=true")
			.withPropertyValues(defaults.toArray(String[]::new))
			.run((context) -> assertThat(layers(context, "list_orders")).contains(layer));
		this.contextRunner.withPropertyValues(prefix + ".defaults.enabled=false")
			.withPropertyValues(defaults.toArray(String[]::new))
			.run((context) -> assertThat(layers(context, "list_orders")).doesNotContain(layer));
	}

	@Test
	void aSideEffectingToolListedForTheCacheFailsStartupUnlessEnabledExplicitly() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.tools.refund-order.ttl=1m").run((context) -> {
			assertThat(context).hasFailed();
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class)
				.hasMessageContaining("'agent.middleware.cache.tools.refund-order'")
				.hasMessageContaining("tool 'refund_order' is not read-only")
				.hasMessageContaining("Set 'agent.middleware.cache.tools.refund-order.enabled' to true");
		});
		this.contextRunner
			.withPropertyValues("agent.middleware.cache.tools.refund-order.ttl=1m",
					"agent.middleware.cache.tools.refund-order.enabled=true")
			.run((context) -> assertThat(layers(context, "refund_order")).contains("cache"));
	}

	@Test
	void aSideEffectingToolListedForRetriesFailsStartupUnlessEnabledExplicitly() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.tools.refund-order.max-attempts=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class)
					.hasMessageContaining("'agent.middleware.retry.tools.refund-order'")
					.hasMessageContaining("tool 'refund_order' is neither idempotent nor read-only")
					.hasMessageContaining("Set 'agent.middleware.retry.tools.refund-order.enabled' to true");
			});
		this.contextRunner
			.withPropertyValues("agent.middleware.retry.tools.refund-order.max-attempts=2",
					"agent.middleware.retry.tools.refund-order.enabled=true")
			.run((context) -> assertThat(layers(context, "refund_order")).contains("retry"));
	}

	@Test
	void defaultsEnabledNeverSwitchesOnARefusedTool() {
		this.contextRunner
			.withPropertyValues("agent.middleware.cache.defaults.enabled=true",
					"agent.middleware.retry.defaults.enabled=true")
			.run((context) -> assertThat(layers(context, "refund_order")).doesNotContain("cache", "retry"));
	}

	private static List<String> layers(AssertableApplicationContext context, String tool) {
		assertThat(context).hasNotFailed();
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	@Configuration(proxyBeanMethods = false)
	static class OrderToolsConfiguration {

		// Observations of a no-op registry cost nothing, so the middleware stays out of
		// chains without one.
		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

		@Bean
		OrderTools orderTools() {
			return new OrderTools();
		}

	}

	public static class OrderTools {

		@AgentTool(readOnly = true)
		public String lookupOrder(String id) {
			return id;
		}

		@AgentTool(readOnly = true)
		public String listOrders(String customer) {
			return customer;
		}

		@AgentTool
		public String refundOrder(String id) {
			return id;
		}

	}

}
