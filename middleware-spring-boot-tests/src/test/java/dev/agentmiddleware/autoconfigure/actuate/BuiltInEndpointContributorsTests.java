package dev.agentmiddleware.autoconfigure.actuate;

import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpoint.AgentToolDescriptor;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.learning.LearningAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.recovery.CrashRecoveryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.timeout.ToolTimeoutAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.TransientToolException;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class BuiltInEndpointContributorsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolObservationAutoConfiguration.class, ToolLoggingAutoConfiguration.class,
				ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class, ToolRetryAutoConfiguration.class,
				ToolRateLimitAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				RedisRateLimiterStoreAutoConfiguration.class, ToolTimeoutAutoConfiguration.class,
				CrashRecoveryAutoConfiguration.class, LearningAutoConfiguration.class,
				AgentMiddlewareEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=agentmiddleware",
				"agent.middleware.cache.defaults.ttl=10m", "agent.middleware.cache.defaults.max-size=50",
				"agent.middleware.cache.tools.lookup-price.ttl=90s",
				"agent.middleware.cache.tools.lookup-price.scope=global",
				"agent.middleware.rate-limit.tools.place-order.limit-for-period=5",
				"agent.middleware.rate-limit.tools.place-order.key=tool-and-session",
				"agent.middleware.rate-limit.tools.place-order.max-calls-per-session=20",
				"agent.middleware.timeout.tools.lookup-price.timeout=2s",
				"agent.middleware.logging.tools.place-order.max-value-length=80")
		.withUserConfiguration(ShopConfiguration.class);

	@Test
	void aReadOnlyToolShowsItsCacheSettingsWithTheOverrideMergedOverTheDefaults() {
		this.contextRunner.run((context) -> {
			Map<String, Object> settings = endpoint(context).tool("lookup_price").settings();
			assertThat(settings).containsEntry("cache", Map.of("ttl", "90s", "maxSize", 50L, "scope", "GLOBAL"));
			assertThat(settings).containsEntry("timeout", Map.of("timeout", "2s"));
			assertThat(settings).containsEntry("logging", Map.of("maxValueLength", 200, "logResults", true));
		});
	}

	@Test
	void settingsFollowTheChainUnderTheNamesItPrints() {
		this.contextRunner.run((context) -> {
			AgentToolDescriptor price = endpoint(context).tool("lookup_price");
			assertThat(price.chain()).containsExactly("observation", "logging", "cache", "retry", "timeout",
					"lookup_price");
			assertThat(price.settings().keySet()).containsExactly("observation", "logging", "cache", "retry",
					"timeout");
			assertThat(price.settings()).containsEntry("observation", Map.of("enabled", true));
		});
	}

	@Test
	void aRetriedToolShowsItsEffectivePolicy() {
		this.contextRunner.run((context) -> {
			Object retry = endpoint(context).tool("lookup_price").settings().get("retry");
			assertThat(retry).isInstanceOfSatisfying(Map.class, (policy) -> {
				assertThat(policy).containsEntry("maxAttempts", 3)
					.containsEntry("initialBackoff", "200ms")
					.containsEntry("maxBackoff", "5s")
					.containsEntry("multiplier", 2.0)
					.containsEntry("jitter", 0.5);
				assertThat(policy.get("retryOn"))
					.isEqualTo(List.of(TransientToolException.class.getName(), IOException.class.getName()));
			});
		});
	}

	@Test
	void aRateLimitedToolShowsItsLimitAndANonIdempotentToolNoRetry() {
		this.contextRunner.run((context) -> {
			Map<String, Object> settings = endpoint(context).tool("place_order").settings();
			Map<String, Object> rateLimit = new LinkedHashMap<>(Map.of("limitForPeriod", 5, "limitRefreshPeriod", "1m",
					"maxWait", "0s", "key", "TOOL_AND_SESSION", "maxCallsPerSession", 20));
			rateLimit.put("maxConcurrentCalls", null);
			assertThat(settings).containsEntry("rate-limit", rateLimit);
			assertThat(settings).containsEntry("logging", Map.of("maxValueLength", 80, "logResults", true));
			assertThat(settings).doesNotContainKeys("retry", "cache", "timeout", "crash-recovery");
			assertThat(endpoint(context).tool("lookup_price").settings()).doesNotContainKey("rate-limit");
		});
	}

	@Test
	void aBrowserToolShowsItsCrashRecoveryAndTheSectionSaysWhetherSessionsAreReset() {
		this.contextRunner.run((context) -> {
			AgentMiddlewareEndpoint endpoint = endpoint(context);
			assertThat(endpoint.tool("open_page").settings()).containsEntry("crash-recovery",
					Map.of("crashTypes", List.of(), "anyRuntimeExceptionIsCrash", true));
			assertThat(endpoint.agentMiddleware().sections()).containsEntry("crash-recovery",
					Map.of("sessionReset", false));
		});
	}

	@Test
	void theCacheSectionCountsAHitAndAMissMadeThroughTheToolCallback() {
		this.contextRunner.run((context) -> {
			ToolCallback price = callback(context, "lookup_price");
			price.call("{\"sku\":\"SKU-4711-private\"}", session("s1"));
			price.call("{\"sku\":\"SKU-4711-private\"}", session("s2"));
			assertThat(context.getBean(ShopTools.class).lookups()).as("the second call is a hit").isOne();
			Map<String, Object> sections = endpoint(context).agentMiddleware().sections();
			assertThat(sections).containsEntry("cache", Map.of("lookup_price",
					Map.of("hits", 1L, "misses", 1L, "evictions", 0L, "size", 1L, "hitRate", 0.5)));
			// The pool counts its thread as active until just after the call's result was
			// handed over, so a
			// finished call may still show as one active thread: assert the configuration
			// and that nothing queues.
			assertThat(sections).extractingByKey("timeout")
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
				.containsEntry("maxThreads", 16)
				.containsEntry("queueCapacity", 64)
				.containsEntry("queuedCalls", 0)
				.hasEntrySatisfying("activeThreads", (active) -> assertThat((Integer) active).isBetween(0, 1));
		});
	}

	@Test
	void theJsonOfTheEndpointHoldsNoArgumentValue() {
		this.contextRunner.run((context) -> {
			callback(context, "lookup_price").call("{\"sku\":\"SKU-4711-private\"}", session("s1"));
			callback(context, "place_order").call("{\"sku\":\"SKU-0815-private\"}", session("s1"));
			String json = JsonMapper.builder().build().writeValueAsString(endpoint(context).agentMiddleware());
			assertThat(json).contains("\"ttl\":\"90s\"", "\"limitRefreshPeriod\":\"1m\"", "\"hitRate\":0.0")
				.doesNotContain("4711", "0815", "private");
		});
	}

	@Test
	void aUserContributorReplacesABuiltInOneByName() {
		this.contextRunner.withUserConfiguration(UserCacheContributorConfiguration.class).run((context) -> {
			assertThat(context.getBean("cacheEndpointContributor")).isInstanceOf(UserCacheContributor.class);
			assertThat(endpoint(context).tool("lookup_price").settings()).containsEntry("cache", "mine");
		});
	}

	@Test
	void withoutActuatorTheBuiltInsStartWithoutContributors() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(AgentMiddlewareEndpointContributor.class)
					.doesNotHaveBean(AgentMiddlewareEndpoint.class);
				assertThat(context.getBean(AgentToolRegistry.class).get("lookup_price").pipeline().layers())
					.contains("cache", "retry", "timeout");
			});
	}

	@Test
	void durationsAreWrittenExactlyInTheLargestUnitThatDividesThem() {
		assertThat(PolicyEndpointContributor.text(Duration.ZERO)).isEqualTo("0s");
		assertThat(PolicyEndpointContributor.text(Duration.ofMillis(250))).isEqualTo("250ms");
		assertThat(PolicyEndpointContributor.text(Duration.ofMillis(1500))).isEqualTo("1500ms");
		assertThat(PolicyEndpointContributor.text(Duration.ofSeconds(90))).isEqualTo("90s");
		assertThat(PolicyEndpointContributor.text(Duration.ofMinutes(5))).isEqualTo("5m");
		assertThat(PolicyEndpointContributor.text(Duration.ofDays(1))).isEqualTo("24h");
		assertThat(PolicyEndpointContributor.text(Duration.ofNanos(1500))).isEqualTo("PT0.0000015S");
	}

	private static AgentMiddlewareEndpoint endpoint(AssertableApplicationContext context) {
		return context.getBean(AgentMiddlewareEndpoint.class);
	}

	private static ToolCallback callback(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalArgumentException("No tool " + name);
	}

	private static ToolContext session(String sessionId) {
		return new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, sessionId));
	}

	public static class ShopTools {

		private final AtomicInteger lookups = new AtomicInteger();

		public int lookups() {
			return this.lookups.get();
		}

		@AgentTool(description = "Price of a product", readOnly = true)
		public String lookupPrice(String sku) {
			this.lookups.incrementAndGet();
			return "9.99";
		}

		@AgentTool(description = "Places an order")
		public String placeOrder(String sku) {
			return "placed";
		}

		@AgentTool(description = "Opens a page", tags = "browser")
		public String openPage(String url) {
			return "opened";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ShopConfiguration {

		@Bean
		ShopTools shopTools() {
			return new ShopTools();
		}

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

	}

	static class UserCacheContributor implements AgentMiddlewareEndpointContributor {

		@Override
		public String name() {
			return "cache";
		}

		@Override
		public @Nullable Object describe() {
			return null;
		}

		@Override
		public Object describeTool(RegisteredTool tool) {
			return "mine";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserCacheContributorConfiguration {

		@Bean
		UserCacheContributor cacheEndpointContributor() {
			return new UserCacheContributor();
		}

	}

}
