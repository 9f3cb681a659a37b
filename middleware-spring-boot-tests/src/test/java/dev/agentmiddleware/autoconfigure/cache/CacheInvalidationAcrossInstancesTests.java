package dev.agentmiddleware.autoconfigure.cache;

import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcCacheInvalidations;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two application contexts (two instances) on one database: entries stay in each
 * instance, and an invalidation on one (by a write tool, by arguments, of everything)
 * reaches the other; through PostgreSQL LISTEN/NOTIFY (with polling once an hour, so only
 * NOTIFY can deliver it within the test's bound) and, on H2, by polling.
 */
@ExtendWith(OutputCaptureExtension.class)
class CacheInvalidationAcrossInstancesTests {

	// Far below the hour of polling that the NOTIFY tests configure, far above what a
	// loaded CI machine needs.
	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class))
		.withUserConfiguration(FileToolsConfiguration.class);

	@BeforeEach
	void resetReads() {
		FileTools.reads.set(0);
	}

	@Test
	void withoutADataSourceInvalidationsStayLocal() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(JdbcCacheInvalidations.class)
			.hasSingleBean(ToolResultCache.class));
	}

	@Test
	void memoryKeepsInvalidationsLocalEvenWithADataSource() {
		DataSource h2 = h2();
		this.contextRunner.withBean(DataSource.class, () -> h2)
			.withPropertyValues("agent.middleware.cache.store.type=memory")
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcCacheInvalidations.class));
	}

	@Test
	void theDeprecatedInvalidationTypeStillChoosesTheStoreAndStartupWarnsToUseStoreType(CapturedOutput output) {
		DataSource h2 = h2();
		this.contextRunner.withBean(DataSource.class, () -> h2)
			.withPropertyValues("agent.middleware.cache.invalidation.type=memory")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(JdbcCacheInvalidations.class);
				assertThat(output).contains("agent.middleware.cache.invalidation.type is deprecated: set "
						+ "agent.middleware.cache.store.type instead");
			});
	}

	@Test
	void theDeprecatedInvalidationTypeSetToJdbcWithoutADataSourceFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.invalidation.type=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class,
					(ex) -> assertThat(ex.getProperty()).isEqualTo("agent.middleware.cache.invalidation.type"));
		});
	}

	@Test
	void jdbcWithoutADataSourceFailsStartupNamingTheFix() {
		this.contextRunner.withPropertyValues("agent.middleware.cache.store.type=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
				assertThat(ex.getProperty()).isEqualTo("agent.middleware.cache.store.type");
				assertThat(ex.getAction()).contains("spring.datasource.");
			});
		});
	}

	@Test
	void onH2AWriteOnOneInstanceInvalidatesTheOthersReadByPolling() {
		DataSource h2 = h2();
		twoInstances(() -> h2, (a, b) -> {
			assertThat(a.getBean(JdbcCacheInvalidations.class).isPostgres()).isFalse();
			aWriteOnBInvalidatesTheReadCachedOnA(a, b);
		});
	}

	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgresql {

		private PostgresTestDatabase database;

		@BeforeEach
		void createSchema() {
			this.database = PostgresTestDatabase.createSchema();
		}

		@AfterEach
		void dropSchema() {
			this.database.close();
		}

		@Test
		void aWriteOnOneInstanceInvalidatesTheOthersRead() {
			twoInstancesWakingOnNotifyOnly(this::dataSource, (a, b) -> {
				assertThat(a.getBean(JdbcCacheInvalidations.class).isPostgres()).isTrue();
				aWriteOnBInvalidatesTheReadCachedOnA(a, b);
			});
		}

		@Test
		void anInvalidationByArgumentsRemovesOnlyThoseEntriesOnTheOtherInstance() {
			twoInstancesWakingOnNotifyOnly(this::dataSource, (a, b) -> {
				call(a, "read_file", "{\"path\":\"/a\"}");
				call(a, "read_file", "{\"path\":\"/b\"}");
				assertThat(cached(a)).isEqualTo(2);
				b.getBean(ToolResultCache.class).invalidate("read_file", Map.of("path", "/a"));
				awaitWithin(() -> cached(a) == 1);
				assertThat(call(a, "read_file", "{\"path\":\"/b\"}")).isEqualTo("content of /b #2");
				assertThat(call(a, "read_file", "{\"path\":\"/a\"}")).isEqualTo("content of /a #3");
			});
		}

		@Test
		void invalidatingEverythingReachesTheOtherInstance() {
			twoInstancesWakingOnNotifyOnly(this::dataSource, (a, b) -> {
				call(a, "read_file", "{\"path\":\"/a\"}");
				b.getBean(ToolResultCache.class).invalidateAll();
				awaitWithin(() -> cached(a) == 0);
				assertThat(call(a, "read_file", "{\"path\":\"/a\"}")).isEqualTo("content of /a #2");
			});
		}

		private DataSource dataSource() {
			return new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
					this.database.username(), this.database.password());
		}

	}

	// Polling once an hour: only NOTIFY can deliver within WITHIN.
	private void twoInstancesWakingOnNotifyOnly(Supplier<DataSource> dataSource, Instances body) {
		twoInstances(this.contextRunner.withPropertyValues("agent.middleware.cache.invalidation.poll-interval=1h"),
				dataSource, body);
	}

	private void twoInstances(Supplier<DataSource> dataSource, Instances body) {
		twoInstances(this.contextRunner, dataSource, body);
	}

	private static void twoInstances(ApplicationContextRunner runner, Supplier<DataSource> dataSource, Instances body) {
		ApplicationContextRunner instance = runner.withBean(DataSource.class, dataSource);
		instance.run((a) -> instance.run((b) -> {
			assertThat(a).hasNotFailed();
			assertThat(b).hasNotFailed();
			body.run(a, b);
		}));
	}

	private static void aWriteOnBInvalidatesTheReadCachedOnA(AssertableApplicationContext a,
			AssertableApplicationContext b) {
		assertThat(call(a, "read_file", "{\"path\":\"/notes.txt\"}")).isEqualTo("content of /notes.txt #1");
		assertThat(call(a, "read_file", "{\"path\":\"/notes.txt\"}")).as("cached on a")
			.isEqualTo("content of /notes.txt #1");
		assertThat(cached(b)).as("b never read it").isZero();
		assertThat(call(b, "write_file", "{\"path\":\"/notes.txt\",\"content\":\"new\"}")).isEqualTo("written");
		awaitWithin(() -> cached(a) == 0);
		assertThat(call(a, "read_file", "{\"path\":\"/notes.txt\"}")).isEqualTo("content of /notes.txt #2");
	}

	// Polls the condition (no fixed sleep) and fails if it does not hold within WITHIN.
	private static void awaitWithin(BooleanSupplier condition) {
		await("the invalidation arrives within " + WITHIN).atMost(WITHIN)
			.pollInterval(Duration.ofMillis(5))
			.until(condition::getAsBoolean);
	}

	private static long cached(AssertableApplicationContext context) {
		CacheStatistics statistics = context.getBean(ToolResultCache.class).statistics().get("read_file");
		return (statistics != null) ? statistics.size() : 0;
	}

	private static String call(AssertableApplicationContext context, String tool, String json) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(tool)) {
				return callback.call(json, new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
			}
		}
		throw new AssertionError("no tool " + tool);
	}

	private static DataSource h2() {
		return new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:cache-invalidation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@FunctionalInterface
	interface Instances {

		void run(AssertableApplicationContext a, AssertableApplicationContext b);

	}

	/**
	 * A file system shared by the instances: reads are cached, a write invalidates by
	 * predicate (as a real write tool does for paths under the written one).
	 */
	public static class FileTools {

		private static final AtomicInteger reads = new AtomicInteger();

		private final ToolResultCache cache;

		public FileTools(ToolResultCache cache) {
			this.cache = cache;
		}

		@AgentTool(description = "Reads a file", safety = SafetyLevel.SAFE, readOnly = true)
		public String readFile(String path) {
			return "content of " + path + " #" + reads.incrementAndGet();
		}

		@AgentTool(description = "Writes a file")
		public String writeFile(String path, String content) {
			this.cache.invalidate("read_file", (arguments) -> Objects.equals(path, arguments.get("path")));
			return "written";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FileToolsConfiguration {

		@Bean
		FileTools fileTools(ObjectProvider<ToolResultCache> cache) {
			return new FileTools(cache.getObject());
		}

	}

}
