package dev.agentmiddleware.autoconfigure.ratelimit;

import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.Bucket4jJdbcRateLimiterStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.ratelimit.InMemoryRateLimiterStore;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.callback;
import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.executions;
import static dev.agentmiddleware.autoconfigure.ratelimit.TwoInstances.session;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Rate limits shared by several instances through
 * {@code agent.middleware.rate-limit.store.type}: memory on H2, a startup failure for
 * {@code jdbc} on H2, and on a real PostgreSQL two application contexts (two instances)
 * that count against one limit, failing closed (or open) while the database is
 * unreachable.
 */
@ExtendWith(OutputCaptureExtension.class)
class SharedRateLimitStoreTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolRateLimitAutoConfiguration.class,
						JdbcStoresAutoConfiguration.class, RedisRateLimiterStoreAutoConfiguration.class))
		.withUserConfiguration(ToolRateLimitAutoConfigurationTests.SearchConfiguration.class)
		.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=5",
				"agent.middleware.rate-limit.tools.search.limit-refresh-period=1h");

	@Test
	void withoutADataSourceAutoCountsInMemory() {
		this.contextRunner.run((context) -> assertThat(context).getBean(RateLimiterStore.class)
			.isInstanceOf(InMemoryRateLimiterStore.class));
	}

	@Test
	void autoOnH2CountsInMemory() {
		this.contextRunner.withUserConfiguration(H2Configuration.class)
			.run((context) -> assertThat(context).getBean(RateLimiterStore.class)
				.isInstanceOf(InMemoryRateLimiterStore.class));
	}

	@Test
	void jdbcOnH2FailsStartupNamingTheFix() {
		this.contextRunner.withUserConfiguration(H2Configuration.class)
			.withPropertyValues("agent.middleware.rate-limit.store.type=jdbc")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("agent.middleware.rate-limit.store.type");
					assertThat(ex.getReason())
						.isEqualTo("the shared rate-limit store supports PostgreSQL only, and the DataSource is H2");
					assertThat(ex.getAction()).contains("Point spring.datasource.url at PostgreSQL")
						.contains("agent.middleware.rate-limit.store.type to memory");
				});
			});
	}

	@Test
	void jdbcOnH2IsReportedAsAFailedStartupWithTheFix(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(H2Application.class)
			.web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "agent.middleware.rate-limit.store.type=jdbc",
					"agent.middleware.rate-limit.tools.search.limit-for-period=5");
		assertThatException().isThrownBy(application::run);
		String text = output.getOut() + output.getErr();
		assertThat(text.substring(text.indexOf("APPLICATION FAILED TO START")))
			.contains("Property: agent.middleware.rate-limit.store.type")
			.contains("Value: \"jdbc\"")
			.contains("Reason: the shared rate-limit store supports PostgreSQL only, and the DataSource is H2")
			.contains("Point spring.datasource.url at PostgreSQL, or set agent.middleware.rate-limit.store.type to "
					+ "memory (each instance then counts on its own) or auto (memory on other databases).");
	}

	@Test
	void jdbcWithoutADataSourceFailsStartupNamingTheFix() {
		this.contextRunner.withPropertyValues("agent.middleware.rate-limit.store.type=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class,
					(ex) -> assertThat(ex.getReason()).contains("needs a DataSource"));
		});
	}

	@Test
	void memoryOnPostgresqlOrAnyDatabaseStaysInMemory() {
		this.contextRunner.withUserConfiguration(H2Configuration.class)
			.withPropertyValues("agent.middleware.rate-limit.store.type=memory")
			.run((context) -> assertThat(context).getBean(RateLimiterStore.class)
				.isInstanceOf(InMemoryRateLimiterStore.class));
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
		void autoChoosesTheSharedStoreAndSaysSoAtStartup(CapturedOutput output) {
			instance().run((context) -> {
				assertThat(context).getBean(RateLimiterStore.class).isInstanceOf(Bucket4jJdbcRateLimiterStore.class);
				assertThat(output).contains("Rate limits are shared in PostgreSQL (Bucket4j, table "
						+ "agent_rate_limit_bucket); while it is unreachable calls are rejected as rate limited "
						+ "(fail closed)");
			});
		}

		@Test
		void autoWithoutBucket4jFailsStartupInsteadOfCountingPerInstance() {
			instance().withClassLoader(new FilteredClassLoader("io.github.bucket4j.postgresql")).run((context) -> {
				assertThat(context).hasFailed();
				Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(root).isInstanceOfSatisfying(InvalidToolConfigurationException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("agent.middleware.rate-limit.store.type");
					assertThat(ex.getReason()).contains("PostgreSQL")
						.contains("Bucket4j's PostgreSQL backend, which is not on the classpath");
					assertThat(ex.getAction()).contains("com.bucket4j:bucket4j_jdk17-postgresql")
						.contains("agent.middleware.rate-limit.store.type to memory");
				});
			});
		}

		@Test
		void autoStaysInMemoryWhenNoToolIsLimited() {
			new ApplicationContextRunner()
				.withConfiguration(
						AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
								AgentToolSpringAiAutoConfiguration.class, ToolRateLimitAutoConfiguration.class,
								JdbcStoresAutoConfiguration.class, RedisRateLimiterStoreAutoConfiguration.class))
				.withUserConfiguration(ToolRateLimitAutoConfigurationTests.SearchConfiguration.class)
				.withBean(DataSource.class, this::dataSource)
				.run((context) -> {
					assertThat(context).getBean(RateLimiterStore.class).isInstanceOf(InMemoryRateLimiterStore.class);
					assertThat(JdbcClient.create(dataSource())
						.sql("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'agent_rate_limit_bucket' "
								+ "AND table_schema = ?")
						.param(this.database.schema())
						.query(Long.class)
						.single()).isZero();
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
		void aLimitPerSessionIsSharedPerSessionWithoutStoringTheSessionId() {
			instance()
				.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
						"agent.middleware.rate-limit.tools.search.key=tool-and-session")
				.run((a) -> instance()
					.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
							"agent.middleware.rate-limit.tools.search.key=tool-and-session")
					.run((b) -> {
						assertThat(callback(a, "search").call("{\"query\":\"a\"}", session("secret-session-1")))
							.isEqualTo("found a");
						assertThat(callback(b, "search").call("{\"query\":\"b\"}", session("secret-session-1")))
							.startsWith("Tool 'search' is rate limited (1 call per 1h per session)");
						assertThat(callback(b, "search").call("{\"query\":\"c\"}", session("secret-session-2")))
							.isEqualTo("found c");
						List<String> ids = JdbcClient.create(dataSource())
							.sql("SELECT id FROM agent_rate_limit_bucket")
							.query(String.class)
							.list();
						assertThat(ids).hasSize(2).noneMatch((id) -> id.contains("secret-session"));
					}));
		}

		@Test
		void anUnreachableDatabaseRejectsCallsWithADistinctReason() {
			SwitchableDataSource dataSource = new SwitchableDataSource(dataSource());
			instance(dataSource).withPropertyValues("agent.middleware.rate-limit.store.type=jdbc").run((context) -> {
				ToolCallback search = callback(context, "search");
				assertThat(search.call("{\"query\":\"a\"}", session("s1"))).isEqualTo("found a");
				dataSource.stop();
				assertThat(search.call("{\"query\":\"b\"}", session("s1")))
					.isEqualTo("Tool 'search' is rate limited (rate limiter unavailable)");
				assertThat(executions(context)).isEqualTo(1);
				dataSource.restart();
				assertThat(search.call("{\"query\":\"c\"}", session("s1"))).isEqualTo("found c");
			});
		}

		@Test
		void anUnreachableDatabaseLetsCallsRunWhenConfiguredToFailOpen(CapturedOutput output) {
			SwitchableDataSource dataSource = new SwitchableDataSource(dataSource());
			instance(dataSource)
				.withPropertyValues("agent.middleware.rate-limit.store.type=jdbc",
						"agent.middleware.rate-limit.store.on-unavailable=allow")
				.run((context) -> {
					assertThat(output).contains("WARN").contains("calls run WITHOUT a limit");
					ToolCallback search = callback(context, "search");
					dataSource.stop();
					for (int i = 0; i < 7; i++) {
						assertThat(search.call("{\"query\":\"a\"}", session("s1"))).isEqualTo("found a");
					}
					assertThat(output).contains("Rate limit of tool 'search' could not be checked");
				});
		}

		private ApplicationContextRunner instance() {
			return instance(dataSource());
		}

		private ApplicationContextRunner instance(DataSource dataSource) {
			return SharedRateLimitStoreTests.this.contextRunner.withBean(DataSource.class, () -> dataSource);
		}

		private DataSource dataSource() {
			return new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
					this.database.username(), this.database.password());
		}

	}

	/**
	 * A real PostgreSQL DataSource that can be "stopped": its connections then go to a
	 * closed port, so the driver fails as it does when the server is down.
	 */
	static final class SwitchableDataSource extends AbstractDataSource {

		private final DataSource running;

		private final DataSource stopped = new SimpleDriverDataSource(new org.postgresql.Driver(),
				"jdbc:postgresql://127.0.0.1:1/agentmw?connectTimeout=2", "nobody", "nothing");

		private volatile boolean down;

		SwitchableDataSource(DataSource running) {
			this.running = running;
		}

		void stop() {
			this.down = true;
		}

		void restart() {
			this.down = false;
		}

		@Override
		public Connection getConnection() throws SQLException {
			return (this.down ? this.stopped : this.running).getConnection();
		}

		@Override
		public Connection getConnection(@Nullable String username, @Nullable String password) throws SQLException {
			return (this.down ? this.stopped : this.running).getConnection(username, password);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
			ToolRateLimitAutoConfiguration.class })
	@Import({ H2Configuration.class, ToolRateLimitAutoConfigurationTests.SearchConfiguration.class })
	static class H2Application {

	}

	@Configuration(proxyBeanMethods = false)
	static class H2Configuration {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:rate-limit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

	}

}
