package dev.agentmiddleware.autoconfigure.cache;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class ToolCacheAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class))
		.withUserConfiguration(FileToolsConfiguration.class);

	@Test
	void cachesReadOnlyToolsWithTheDefaults() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(CacheMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("read_file").pipeline().layers()).containsExactly("cache", "read_file");
			assertThat(registry.get("write_file").pipeline().layers()).containsExactly("write_file");
			assertThat(context.getBean(CacheMiddleware.class).policies()).containsExactly(
					Map.entry("read_file", new CachePolicy(Duration.ofMinutes(5), 1000, CacheScope.SESSION)));
		});
	}

	@Test
	void defaultsBindFromProperties() {
		this.contextRunner
			.withPropertyValues("agent.middleware.cache.defaults.ttl=30s",
					"agent.middleware.cache.defaults.max-size=50", "agent.middleware.cache.defaults.scope=principal")
			.run((context) -> assertThat(context.getBean(CacheMiddleware.class).policies()).containsExactly(
					Map.entry("read_file", new CachePolicy(Duration.ofSeconds(30), 50, CacheScope.PRINCIPAL))));
	}

	@Test
	void perToolOverridesMergeWithTheDefaultsFieldByField() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.defaults.ttl=30s",
				"agent.middleware.cache.defaults.max-size=50", "agent.middleware.cache.tools.read-file.scope=global",
				"agent.middleware.cache.tools.search-docs.ttl=1h",
				"agent.middleware.cache.tools.search-docs.enabled=true")
			.run((context) -> assertThat(context.getBean(CacheMiddleware.class).policies()).containsOnly(
					Map.entry("read_file", new CachePolicy(Duration.ofSeconds(30), 50, CacheScope.GLOBAL)),
					Map.entry("search_docs", new CachePolicy(Duration.ofHours(1), 50, CacheScope.SESSION))));
	}

	@Test
	void aToolCanBeForcedOnOrOff() {
		this.contextRunner
			.withPropertyValues("agent.middleware.cache.tools.write-file.enabled=true",
					"agent.middleware.cache.tools.read-file.enabled=false")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("write_file").pipeline().layers()).containsExactly("cache", "write_file");
				assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
			});
	}

	@Test
	void defaultsCanTurnCachingOffForEveryToolButTheConfiguredOnes() {
		this.contextRunner
			.withPropertyValues("agent.middleware.cache.defaults.enabled=false",
					"agent.middleware.cache.tools.search-docs.enabled=true")
			.run((context) -> assertThat(context.getBean(CacheMiddleware.class).policies())
				.containsOnlyKeys("search_docs"));
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.tools.reed-file.ttl=1m").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.cache.tools.reed-file");
		});
	}

	@Test
	void anInvalidSettingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.tools.read-file.max-size=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.cache.tools.read-file")
				.hasMessageContaining("maxSize must be at least 1");
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(CacheMiddleware.class);
			assertThat(context.getBean(AgentToolRegistry.class).get("read_file").pipeline().layers())
				.containsExactly("read_file");
		});
	}

	@Test
	void backsOffWhenCaffeineIsMissing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Caffeine.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CacheMiddleware.class));
	}

	@Test
	void backsOffWhenTheAgentMiddlewareIsDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CacheMiddleware.class));
	}

	@Test
	void exposesTheToolResultCacheTheMiddlewareStoresIn() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ToolResultCache.class);
			ToolCallbacks tools = new ToolCallbacks(context.getBean(AgentToolCallbackProvider.class));
			tools.call("read_file", "{\"path\":\"/a\"}");
			ToolResultCache results = context.getBean(ToolResultCache.class);
			assertThat(results.statistics().get("read_file")).isEqualTo(new CacheStatistics(0, 1, 0, 1));
			results.invalidate("read_file");
			assertThat(results.statistics().get("read_file").size()).isZero();
		});
	}

	@Test
	void backsOffWhenUserDefinesToolResultCache() {
		ToolResultCache own = ToolResultCache.create();
		this.contextRunner.withBean(ToolResultCache.class, () -> own).run((context) -> {
			assertThat(context).hasSingleBean(ToolResultCache.class);
			new ToolCallbacks(context.getBean(AgentToolCallbackProvider.class)).call("read_file", "{\"path\":\"/a\"}");
			assertThat(own.statistics()).containsOnlyKeys("read_file");
		});
	}

	@Test
	void backsOffWhenUserDefinesCacheMiddleware() {
		this.contextRunner.withUserConfiguration(UserCacheConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(CacheMiddleware.class);
			assertThat(context.getBean(CacheMiddleware.class))
				.isSameAs(context.getBean(UserCacheConfiguration.class).cache);
			assertThat(context.getBean(AgentToolRegistry.class).get("write_file").pipeline().layers())
				.containsExactly("cache", "write_file");
		});
	}

	@Test
	void runsBeforeRetryAndRateLimitByDefault() {
		this.contextRunner.withUserConfiguration(NeighboursConfiguration.class)
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("read_file").pipeline().layers())
				.containsExactly("approval", "cache", "retry", "rate-limit", "read_file"));
	}

	@Test
	void theOrderCanBeChanged() {
		this.contextRunner.withUserConfiguration(NeighboursConfiguration.class)
			.withPropertyValues("agent.middleware.cache.order=650")
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("read_file").pipeline().layers())
				.containsExactly("approval", "retry", "cache", "rate-limit", "read_file"));
	}

	@Test
	void aRepeatedCallInTheSameSessionIsCachedAndObservedAsCached() {
		this.contextRunner.withUserConfiguration(ObservedConfiguration.class).run((context) -> {
			ToolCallback readFile = callback(context.getBean(AgentToolCallbackProvider.class), "read_file");
			FileTools tools = context.getBean(FileTools.class);
			assertThat(readFile.call("{\"path\":\"/a\"}", session("s1"))).isEqualTo("content of /a #1");
			assertThat(readFile.call("{\"path\":\"/a\"}", session("s1"))).isEqualTo("content of /a #1");
			assertThat(readFile.call("{\"path\":\"/a\"}", session("s2"))).isEqualTo("content of /a #2");
			assertThat(tools.readFile("/a")).as("a Java call without a session is not cached")
				.isEqualTo("content of /a #3");
			assertThat(tools.reads()).isEqualTo(3);
			assertThat(context.getBean(RecordingToolCallObserver.class).records()).extracting(ToolCallRecord::outcome)
				.containsExactly(CallOutcome.SUCCEEDED, CallOutcome.CACHED, CallOutcome.SUCCEEDED,
						CallOutcome.SUCCEEDED);
			assertThat(context.getBean(RecordingMetrics.class).events).containsExactly(MiddlewareEvent.CACHE_MISS,
					MiddlewareEvent.CACHE_HIT, MiddlewareEvent.CACHE_MISS);
			assertThat(context.getBean(ToolResultCache.class).statistics().get("read_file"))
				.isEqualTo(new CacheStatistics(1, 2, 0, 2));
		});
	}

	@Test
	void applicationCodeCanInvalidateAnotherToolsEntries() {
		this.contextRunner.run((context) -> {
			ToolCallbacks tools = new ToolCallbacks(context.getBean(AgentToolCallbackProvider.class));
			assertThat(tools.call("read_file", "{\"path\":\"/a\"}")).isEqualTo("content of /a #1");
			tools.call("write_file", "{\"path\":\"/a\",\"content\":\"new\"}");
			assertThat(tools.call("read_file", "{\"path\":\"/a\"}")).isEqualTo("content of /a #2");
		});
	}

	private static ToolContext session(String sessionId) {
		return new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, sessionId));
	}

	private static ToolCallback callback(AgentToolCallbackProvider provider, String name) {
		for (ToolCallback callback : provider.getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	private record ToolCallbacks(AgentToolCallbackProvider provider) {

		String call(String tool, String json) {
			return callback(this.provider, tool).call(json, session("s1"));
		}

	}

	public static class FileTools {

		private final AtomicInteger reads = new AtomicInteger();

		private final ToolResultCache cache;

		public FileTools(ToolResultCache cache) {
			this.cache = cache;
		}

		public int reads() {
			return this.reads.get();
		}

		@AgentTool(description = "Reads a file", safety = SafetyLevel.SAFE, readOnly = true)
		public String readFile(String path) {
			return "content of " + path + " #" + this.reads.incrementAndGet();
		}

		@AgentTool(description = "Writes a file")
		public String writeFile(String path, String content) {
			this.cache.invalidate("read_file", Map.of("path", path));
			return "written";
		}

		@AgentTool(description = "Searches the docs", safety = SafetyLevel.SAFE)
		public String searchDocs(String query) {
			return "found " + query;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FileToolsConfiguration {

		@Bean
		FileTools fileTools(ObjectProvider<ToolResultCache> cache) {
			return new FileTools(cache.getIfAvailable(ToolResultCache::create));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserCacheConfiguration {

		final CacheMiddleware cache = CacheMiddleware.builder()
			.policies((tool) -> tool.name().equals("write_file") ? CachePolicy.DEFAULT : null)
			.build();

		@Bean
		CacheMiddleware userCache() {
			return this.cache;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NeighboursConfiguration {

		@Bean
		OrderedMiddleware approval() {
			return passThrough("approval", 400);
		}

		@Bean
		OrderedMiddleware retry() {
			return passThrough("retry", 600);
		}

		@Bean
		OrderedMiddleware rateLimit() {
			return passThrough("rate-limit", 700);
		}

		private static OrderedMiddleware passThrough(String name, int order) {
			return new OrderedMiddleware() {

				@Override
				public int order() {
					return order;
				}

				@Override
				public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
					return next::handle;
				}

				@Override
				public String name() {
					return name;
				}

			};
		}

	}

	static class RecordingMetrics implements MiddlewareMetrics {

		final List<MiddlewareEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void count(MiddlewareEvent event, String toolName) {
			this.events.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ObservedConfiguration {

		@Bean
		RecordingToolCallObserver recordingObserver() {
			return new RecordingToolCallObserver();
		}

		@Bean
		RecordingMetrics recordingMetrics() {
			return new RecordingMetrics();
		}

	}

}
