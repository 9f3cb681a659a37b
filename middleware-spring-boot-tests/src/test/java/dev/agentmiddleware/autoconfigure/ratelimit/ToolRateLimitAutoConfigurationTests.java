package dev.agentmiddleware.autoconfigure.ratelimit;

import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import io.github.resilience4j.ratelimiter.RateLimiter;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.callback;
import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.session;
import static org.assertj.core.api.Assertions.assertThat;

class ToolRateLimitAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolRateLimitAutoConfiguration.class,
						JdbcStoresAutoConfiguration.class, RedisRateLimiterStoreAutoConfiguration.class))
		.withUserConfiguration(SearchConfiguration.class);

	@Test
	void limitsOnlyTheToolsConfiguredUnderTools() {
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=5")
			.run((context) -> {
				assertThat(context).hasSingleBean(RateLimitMiddleware.class);
				assertThat(layers(context, "search")).containsExactly("rate-limit", "search");
				assertThat(layers(context, "lookup")).containsExactly("lookup");
			});
	}

	@Test
	void defaultsEnabledLimitsEveryTool() {
		this.contextRunner
			.withPropertyValues("agent.middleware.rate-limit.defaults.enabled=true",
					"agent.middleware.rate-limit.tools.lookup.enabled=false")
			.run((context) -> {
				assertThat(layers(context, "search")).containsExactly("rate-limit", "search");
				assertThat(layers(context, "lookup")).containsExactly("lookup");
			});
	}

	@Test
	void aRejectedCallReturnsTheLimitAndWhenToRetryToTheModel() {
		this.contextRunner
			.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
					"agent.middleware.rate-limit.tools.search.limit-refresh-period=1h",
					"agent.middleware.rate-limit.tools.search.key=tool-and-session")
			.withUserConfiguration(MetricsConfiguration.class)
			.run((context) -> {
				ToolCallback search = callback(context, "search");
				assertThat(search.call("{\"query\":\"a\"}", session("s1"))).isEqualTo("found a");
				String rejected = search.call("{\"query\":\"b\"}", session("s1"));
				assertThat(rejected)
					.startsWith("Tool 'search' is rate limited (1 call per 1h per session); retry in about ")
					.matches(".*retry in about (59m\\d+s|1h)$");
				assertThat(search.call("{\"query\":\"c\"}", session("s2"))).isEqualTo("found c");
				assertThat(context.getBean(SearchTools.class).executions()).isEqualTo(2);
				assertThat(context.getBean(RecordingMetrics.class).events)
					.containsExactly(MiddlewareEvent.RATE_LIMIT_REJECTED + " search");
			});
	}

	@Test
	void aUsedUpSessionBudgetIsReportedToTheModel() {
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.tools.search.max-calls-per-session=1")
			.run((context) -> {
				ToolCallback search = callback(context, "search");
				search.call("{\"query\":\"a\"}", session("s1"));
				assertThat(search.call("{\"query\":\"b\"}", session("s1")))
					.isEqualTo("Tool 'search' is rate limited (budget of 1 call per session used up)");
			});
	}

	@Test
	void maxConcurrentCallsComesFromTheDefaultsOrTheToolAndMustBeAtLeastOne() {
		this.contextRunner
			.withPropertyValues("agent.middleware.rate-limit.defaults.max-concurrent-calls=4",
					"agent.middleware.rate-limit.tools.search.enabled=true",
					"agent.middleware.rate-limit.tools.lookup.max-concurrent-calls=1")
			.run((context) -> {
				Map<String, RateLimitPolicy> policies = context.getBean(RateLimitMiddleware.class).policies();
				assertThat(policies.get("search").maxConcurrentCalls()).isEqualTo(4);
				assertThat(policies.get("lookup").maxConcurrentCalls()).isEqualTo(1);
			});
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.tools.search.max-concurrent-calls=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.rate-limit.tools.search")
					.hasMessageContaining("maxConcurrentCalls must be at least 1");
			});
	}

	@Test
	void perToolSettingsOverrideTheDefaultsFieldByField() {
		this.contextRunner
			.withPropertyValues("agent.middleware.rate-limit.defaults.limit-for-period=2",
					"agent.middleware.rate-limit.defaults.limit-refresh-period=30s",
					"agent.middleware.rate-limit.tools.SEARCH.key=tool-and-session",
					"agent.middleware.rate-limit.tools.SEARCH.limit-refresh-period=1h")
			.run((context) -> {
				ToolCallback search = callback(context, "search");
				search.call("{\"query\":\"a\"}", session("s1"));
				search.call("{\"query\":\"b\"}", session("s1"));
				assertThat(search.call("{\"query\":\"c\"}", session("s1"))).contains("(2 calls per 1h per session)");
			});
	}

	@Test
	void anUnknownToolNameFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.tools.serch.limit-for-period=5")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.rate-limit.tools.serch");
			});
	}

	@Test
	void anInvalidSettingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.rate-limit.tools.search")
					.hasMessageContaining("limitForPeriod must be at least 1");
			});
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.defaults.limit-refresh-period=0s")
			.run((context) -> {
				assertThat(context).as("invalid defaults fail even when no tool is limited").hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.rate-limit.defaults")
					.hasMessageContaining("limitRefreshPeriod");
			});
	}

	@Test
	void theOrderCanBeChangedInProperties() {
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=5")
			.run((context) -> assertThat(layers(context, "search")).containsExactly("rate-limit", "probe", "search"));
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=5",
					"agent.middleware.rate-limit.order=900")
			.run((context) -> assertThat(layers(context, "search")).containsExactly("probe", "rate-limit", "search"));
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner
			.withPropertyValues("agent.middleware.rate-limit.enabled=false",
					"agent.middleware.rate-limit.tools.search.limit-for-period=5")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RateLimitMiddleware.class);
				assertThat(layers(context, "search")).containsExactly("search");
			});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner.withUserConfiguration(UserMiddlewareConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RateLimitMiddleware.class);
			assertThat(context.getBean(RateLimitMiddleware.class))
				.isSameAs(context.getBean(UserMiddlewareConfiguration.class).middleware);
		});
	}

	@Test
	void backsOffWithoutResilience4j() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(RateLimiter.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RateLimitMiddleware.class));
	}

	private static List<String> layers(AssertableApplicationContext context, String tool) {
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	public static class SearchTools {

		private final AtomicInteger executions = new AtomicInteger();

		public int executions() {
			return this.executions.get();
		}

		@AgentTool(description = "Searches the web", safety = SafetyLevel.SAFE, readOnly = true)
		public String search(String query) {
			this.executions.incrementAndGet();
			return "found " + query;
		}

		@AgentTool(description = "Looks a word up", safety = SafetyLevel.SAFE, readOnly = true)
		public String lookup(String word) {
			return word;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SearchConfiguration {

		@Bean
		SearchTools searchTools() {
			return new SearchTools();
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
	static class ProbeConfiguration {

		@Bean
		OrderedMiddleware probe() {
			return new OrderedMiddleware() {

				@Override
				public int order() {
					return 750;
				}

				@Override
				public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
					return next::handle;
				}

				@Override
				public String name() {
					return "probe";
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserMiddlewareConfiguration {

		final RateLimitMiddleware middleware = RateLimitMiddleware.builder().policies((tool) -> null).build();

		@Bean
		RateLimitMiddleware userRateLimit() {
			return this.middleware;
		}

	}

}
