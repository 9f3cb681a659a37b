package dev.agentmiddleware.autoconfigure.retry;

import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.TransientToolException;
import io.github.resilience4j.retry.Retry;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class ToolRetryAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolRetryAutoConfiguration.class))
		.withUserConfiguration(FlakyConfiguration.class)
		.withPropertyValues("agent.middleware.retry.defaults.initial-backoff=1ms",
				"agent.middleware.retry.defaults.max-backoff=1ms", "agent.middleware.retry.defaults.jitter=0");

	@Test
	void retriesEveryIdempotentOrReadOnlyToolByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RetryMiddleware.class);
			assertThat(layers(context, "fetch_quote")).containsExactly("retry", "fetch_quote");
			assertThat(layers(context, "read_page")).containsExactly("retry", "read_page");
			assertThat(layers(context, "place_order")).as("neither idempotent nor read-only")
				.containsExactly("place_order");
		});
	}

	@Test
	void aTransientFailureIsRetriedThroughTheRealChainAndCounted() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class).run((context) -> {
			FlakyTools tools = context.getBean(FlakyTools.class);
			tools.failNext(2);
			assertThat(callback(context, "fetch_quote").call("{\"symbol\":\"ACME\"}")).isEqualTo("ACME: 42");
			assertThat(tools.attempts()).isEqualTo(3);
			assertThat(context.getBean(RecordingMetrics.class).events).containsExactly("RETRY fetch_quote",
					"RETRY fetch_quote");
		});
	}

	@Test
	void theLastFailureReachesTheModelWhenTheAttemptsRunOut() {
		this.contextRunner.run((context) -> {
			FlakyTools tools = context.getBean(FlakyTools.class);
			tools.failNext(10);
			assertThat(callback(context, "fetch_quote").call("{\"symbol\":\"ACME\"}"))
				.isEqualTo("Tool 'fetch_quote' failed: TransientToolException: Quote service busy (attempt 3)");
			assertThat(tools.attempts()).isEqualTo(3);
		});
	}

	@Test
	void perToolSettingsOverrideTheDefaultsFieldByField() {
		this.contextRunner
			.withPropertyValues("agent.middleware.retry.defaults.max-attempts=4",
					"agent.middleware.retry.tools.FETCH-QUOTE.retry-exceptions=java.lang.IllegalStateException")
			.run((context) -> {
				FlakyTools tools = context.getBean(FlakyTools.class);
				tools.failNext(10);
				tools.failWithIllegalState(true);
				callback(context, "fetch_quote").call("{\"symbol\":\"ACME\"}");
				assertThat(tools.attempts()).as("max-attempts from the defaults, exceptions from the tool")
					.isEqualTo(4);
				tools.failWithIllegalState(false);
				tools.reset();
				callback(context, "fetch_quote").call("{\"symbol\":\"ACME\"}");
				assertThat(tools.attempts()).as("the tool's list replaces the default one").isEqualTo(1);
			});
	}

	@Test
	void ignoredExceptionsAreNotRetried() {
		this.contextRunner
			.withPropertyValues("agent.middleware.retry.tools.fetch_quote.ignore-exceptions="
					+ TransientToolException.class.getName())
			.run((context) -> {
				FlakyTools tools = context.getBean(FlakyTools.class);
				tools.failNext(10);
				callback(context, "fetch_quote").call("{\"symbol\":\"ACME\"}");
				assertThat(tools.attempts()).isEqualTo(1);
			});
	}

	@Test
	void defaultsCanBeSwitchedOffSoThatOnlyListedToolsAreRetried() {
		this.contextRunner
			.withPropertyValues("agent.middleware.retry.defaults.enabled=false",
					"agent.middleware.retry.tools.read-page.max-attempts=2")
			.run((context) -> {
				assertThat(layers(context, "fetch_quote")).containsExactly("fetch_quote");
				assertThat(layers(context, "read_page")).containsExactly("retry", "read_page");
			});
	}

	@Test
	void retriesConfiguredForASideEffectingToolFailStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.tools.place_order.max-attempts=3")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.retry.tools.place_order")
					.hasMessageContaining("tool 'place_order' is neither idempotent nor read-only")
					.hasMessageContaining("Set 'agent.middleware.retry.tools.place_order.enabled' to true");
			});
	}

	@Test
	void aSideEffectingToolConfiguredWithRetriesOffStartsFine() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.tools.place_order.enabled=false")
			.run((context) -> assertThat(layers(context, "place_order")).containsExactly("place_order"));
	}

	@Test
	void anUnknownToolNameFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.tools.fetch-quotes.max-attempts=5")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.retry.tools.fetch-quotes");
			});
	}

	@Test
	void anInvalidSettingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.tools.fetch_quote.jitter=1.5").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.retry.tools.fetch_quote")
				.hasMessageContaining("jitter");
		});
		this.contextRunner.withPropertyValues("agent.middleware.retry.defaults.retry-exceptions=java.lang.String")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.retry.defaults")
					.hasMessageContaining("java.lang.String");
			});
	}

	@Test
	void retryRunsOutsideTheRateLimitByDefaultAndTheOrderCanBeChanged() {
		ApplicationContextRunner withRateLimit = this.contextRunner
			.withConfiguration(AutoConfigurations.of(ToolRateLimitAutoConfiguration.class,
					JdbcStoresAutoConfiguration.class, RedisRateLimiterStoreAutoConfiguration.class))
			.withPropertyValues("agent.middleware.rate-limit.tools.fetch_quote.limit-for-period=5");
		withRateLimit.run((context) -> assertThat(layers(context, "fetch_quote")).containsExactly("retry", "rate-limit",
				"fetch_quote"));
		withRateLimit.withPropertyValues("agent.middleware.retry.order=750")
			.run((context) -> assertThat(layers(context, "fetch_quote")).containsExactly("rate-limit", "retry",
					"fetch_quote"));
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.retry.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(RetryMiddleware.class);
			assertThat(layers(context, "fetch_quote")).containsExactly("fetch_quote");
		});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner.withUserConfiguration(UserMiddlewareConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RetryMiddleware.class);
			assertThat(layers(context, "fetch_quote")).containsExactly("fetch_quote");
		});
	}

	@Test
	void backsOffWithoutResilience4j() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Retry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RetryMiddleware.class));
	}

	private static List<String> layers(AssertableApplicationContext context, String tool) {
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	private static ToolCallback callback(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	public static class FlakyTools {

		private final AtomicInteger failures = new AtomicInteger();

		private final AtomicInteger attempts = new AtomicInteger();

		private volatile boolean illegalState;

		public void failNext(int failures) {
			this.failures.set(failures);
		}

		public void failWithIllegalState(boolean illegalState) {
			this.illegalState = illegalState;
		}

		public int attempts() {
			return this.attempts.get();
		}

		public void reset() {
			this.attempts.set(0);
			this.failures.set(0);
		}

		@AgentTool(description = "Fetches a stock quote", safety = SafetyLevel.SAFE, idempotent = true)
		public String fetchQuote(String symbol) {
			int attempt = this.attempts.incrementAndGet();
			if (this.failures.getAndDecrement() > 0) {
				if (this.illegalState) {
					throw new IllegalStateException("bad state");
				}
				throw new TransientToolException("Quote service busy (attempt " + attempt + ")");
			}
			return symbol + ": 42";
		}

		@AgentTool(description = "Reads a page", safety = SafetyLevel.SAFE, readOnly = true)
		public String readPage(String url) {
			return url;
		}

		@AgentTool(description = "Places an order", safety = SafetyLevel.MODERATE)
		public String placeOrder(String symbol) {
			return "ordered " + symbol;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FlakyConfiguration {

		@Bean
		FlakyTools flakyTools() {
			return new FlakyTools();
		}

	}

	static class RecordingMetrics implements MiddlewareMetrics {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void count(MiddlewareEvent event, String toolName) {
			this.events.add(event + " " + toolName);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetricsConfiguration {

		@Bean
		RecordingMetrics recordingMetrics() {
			return new RecordingMetrics();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserMiddlewareConfiguration {

		@Bean
		RetryMiddleware userRetry() {
			return RetryMiddleware.builder().policies((tool) -> null).build();
		}

	}

}
