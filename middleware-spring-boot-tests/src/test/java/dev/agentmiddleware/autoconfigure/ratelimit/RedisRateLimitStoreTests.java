package dev.agentmiddleware.autoconfigure.ratelimit;

import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.redis.Bucket4jRedisRateLimiterStore;
import java.time.Duration;
import java.util.List;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import dev.agentmiddleware.testsupport.RedisTestServer;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;

import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.callback;
import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.executions;
import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.session;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rate limits shared by several instances through Redis
 * ({@code agent.middleware.rate-limit.store.type=redis}): Bucket4j's Lettuce backend on
 * the client of Spring Boot's own Lettuce connection factory
 * ({@code spring.data.redis.*}). Two application contexts (two instances) on a real
 * {@code redis-server} count against one limit, without storing session ids, and fail
 * closed (or open) while Redis is down; without Spring Boot's Redis connection factory
 * {@code redis} fails startup naming the fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRateLimitStoreTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolRateLimitAutoConfiguration.class,
						JdbcStoresAutoConfiguration.class, RedisRateLimiterStoreAutoConfiguration.class))
		.withUserConfiguration(ToolRateLimitAutoConfigurationTests.SearchConfiguration.class)
		.withPropertyValues("agent.middleware.rate-limit.store.type=redis",
				"agent.middleware.rate-limit.tools.search.limit-for-period=5",
				"agent.middleware.rate-limit.tools.search.limit-refresh-period=1h");

	@Test
	void redisWithoutSpringBootsLettuceConnectionFactoryFailsStartupNamingTheFix() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
				assertThat(ex.getProperty()).isEqualTo("agent.middleware.rate-limit.store.type");
				assertThat(ex.getReason()).isEqualTo(
						"the Redis rate-limit store needs a LettuceConnectionFactory bean, and the application has none");
				assertThat(ex.getAction()).contains("spring-boot-starter-data-redis")
					.contains("Jedis is not supported")
					.contains("agent.middleware.rate-limit.store.type to memory or jdbc");
			});
		});
	}

	@Test
	void autoNeverChoosesRedisByItself() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
					AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
					ToolRateLimitAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
					RedisRateLimiterStoreAutoConfiguration.class, DataRedisAutoConfiguration.class))
			.withUserConfiguration(ToolRateLimitAutoConfigurationTests.SearchConfiguration.class)
			.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=5",
					"spring.data.redis.port=1")
			.run((context) -> assertThat(context).getBean(RateLimiterStore.class)
				.isNotInstanceOf(Bucket4jRedisRateLimiterStore.class));
	}

	@Nested
	@RequiresService(TestService.REDIS)
	class OnRedis {

		private RedisTestServer redis;

		@BeforeEach
		void startRedis() {
			this.redis = RedisTestServer.start();
		}

		@AfterEach
		void stopRedis() {
			this.redis.close();
		}

		@Test
		void redisIsChosenOnSpringBootsConnectionFactoryAndSaysSoAtStartup(CapturedOutput output) {
			instance().run((context) -> {
				assertThat(context).getBean(RateLimiterStore.class).isInstanceOf(Bucket4jRedisRateLimiterStore.class);
				assertThat(output).contains("Rate limits are shared in Redis (Bucket4j, keys agent-rate-limit:*); "
						+ "while it is unreachable calls are rejected as rate limited (fail closed)");
			});
		}

		@Test
		void twoInstancesShareALimitOfFive() {
			instance().run((a) -> instance().run((b) -> TwoInstances.shareALimitOfFive(a, b)));
		}

		@Test
		void concurrentCallsOnTwoInstancesRunExactlyTheLimit() {
			instance().run((a) -> instance().run((b) -> TwoInstances.runExactlyTheLimitOfConcurrentCalls(a, b)));
		}

		@Test
		void aLimitPerSessionIsSharedPerSessionWithoutStoringTheSessionIdAndExpires() {
			instance()
				.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
						"agent.middleware.rate-limit.tools.search.limit-refresh-period=1m",
						"agent.middleware.rate-limit.tools.search.key=tool-and-session")
				.run((a) -> instance()
					.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
							"agent.middleware.rate-limit.tools.search.limit-refresh-period=1m",
							"agent.middleware.rate-limit.tools.search.key=tool-and-session")
					.run((b) -> {
						assertThat(callback(a, "search").call("{\"query\":\"a\"}", session("secret-session-1")))
							.isEqualTo("found a");
						assertThat(callback(b, "search").call("{\"query\":\"b\"}", session("secret-session-1")))
							.startsWith("Tool 'search' is rate limited (1 call per 1m per session)");
						assertThat(callback(b, "search").call("{\"query\":\"c\"}", session("secret-session-2")))
							.isEqualTo("found c");
						try (RedisClient client = RedisClient.create(this.redis.uri());
								StatefulRedisConnection<String, String> connection = client.connect()) {
							RedisCommands<String, String> commands = connection.sync();
							List<String> keys = commands.keys("*");
							assertThat(keys).hasSize(2)
								.allSatisfy((key) -> assertThat(key)
									.matches("agent-rate-limit:search\\|TOOL_AND_SESSION\\|[0-9a-f]{64}"));
							// A bucket lives until it would have refilled (1 minute) plus
							// ten seconds, then Redis drops it
							assertThat(keys).allSatisfy((key) -> assertThat(commands.pttl(key)).isPositive()
								.isLessThanOrEqualTo(Duration.ofSeconds(70).toMillis()));
						}
					}));
		}

		@Test
		void redisDownRejectsCallsWithADistinctReasonUntilItIsBack() {
			instance().run((context) -> {
				ToolCallback search = callback(context, "search");
				assertThat(search.call("{\"query\":\"a\"}", session("s1"))).isEqualTo("found a");
				this.redis.stop();
				assertThat(search.call("{\"query\":\"b\"}", session("s1")))
					.isEqualTo("Tool 'search' is rate limited (rate limiter unavailable)");
				assertThat(executions(context)).isEqualTo(1);
				this.redis.restart();
				// Lettuce reconnects in the background with a growing delay: the first
				// call after that is counted
				assertThat(untilNotUnavailable(search, "c")).isEqualTo("found c");
			});
		}

		@Test
		void redisDownAtStartupOnlyRejectsLimitedCallsUntilItIsUp() {
			this.redis.stop();
			instance().run((context) -> {
				assertThat(context).hasNotFailed();
				ToolCallback search = callback(context, "search");
				assertThat(search.call("{\"query\":\"a\"}", session("s1")))
					.isEqualTo("Tool 'search' is rate limited (rate limiter unavailable)");
				this.redis.restart();
				assertThat(search.call("{\"query\":\"b\"}", session("s1"))).isEqualTo("found b");
				assertThat(executions(context)).isEqualTo(1);
			});
		}

		@Test
		void redisDownLetsCallsRunWhenConfiguredToFailOpen(CapturedOutput output) {
			instance().withPropertyValues("agent.middleware.rate-limit.store.on-unavailable=allow").run((context) -> {
				assertThat(output).contains("WARN")
					.contains("Rate limits are shared in Redis (Bucket4j, keys agent-rate-limit:*); while it is "
							+ "unreachable calls run WITHOUT a limit");
				ToolCallback search = callback(context, "search");
				this.redis.stop();
				for (int i = 0; i < 7; i++) {
					assertThat(search.call("{\"query\":\"a\"}", session("s1"))).isEqualTo("found a");
				}
				assertThat(output).contains("Rate limit of tool 'search' could not be checked");
			});
		}

		// While Lettuce reconnects a permit fails at once: look again in a moment, until
		// the answer is another one
		private String untilNotUnavailable(ToolCallback search, String query) {
			return await("an answer other than 'rate limiter unavailable'").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> search.call("{\"query\":\"" + query + "\"}", session("s1")),
						(result) -> !result.equals("Tool 'search' is rate limited (rate limiter unavailable)"));
		}

		private ApplicationContextRunner instance() {
			return RedisRateLimitStoreTests.this.contextRunner
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + this.redis.port(),
						"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=1s");
		}

	}

}
