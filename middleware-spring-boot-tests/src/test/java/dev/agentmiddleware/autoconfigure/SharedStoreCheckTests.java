package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.thread.ThreadStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store that configuration makes shared never silently stays in memory: an application
 * with a database ({@code spring.datasource.url}) but without {@code spring-jdbc} (as
 * when a {@code test}-scoped copy overrides the starter's) fails startup naming the store
 * properties and the dependency, instead of keeping approvals and threads in each
 * instance's memory.
 */
class SharedStoreCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ApprovalWebAutoConfiguration.class, McpApprovalAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				DataSourceAutoConfiguration.class));

	// What a user's class path looks like when spring-jdbc is missing: Boot's DataSource
	// auto-configuration backs
	// off (it needs spring-jdbc), so there is no DataSource bean at all, only the
	// property.
	private final FilteredClassLoader withoutSpringJdbc = new FilteredClassLoader("org.springframework.jdbc");

	@Test
	void aDatabaseUrlWithoutSpringJdbcFailsStartupNamingTheDependency() {
		FailureAnalysis analysis = startAndAnalyze(this.contextRunner.withClassLoader(this.withoutSpringJdbc)
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:shared-store-check"));
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.approval.store.type")
			.contains("org.springframework:spring-jdbc")
			.contains("spring.datasource.url is set")
			.contains("agent.middleware.approval.store.type=auto, agent.middleware.threads.store.type=auto")
			.contains("silently stay in memory");
		assertThat(analysis.getAction()).contains("org.springframework.boot:spring-boot-starter-jdbc")
			.contains("<scope>test</scope>");
	}

	@Test
	void anExplicitJdbcStoreWithoutSpringJdbcFailsStartupEvenWithoutADatabase() {
		this.contextRunner.withClassLoader(this.withoutSpringJdbc)
			.withPropertyValues("agent.middleware.threads.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void withoutADatabaseEveryStoreIsInMemoryAsAutoSays() {
		this.contextRunner.withClassLoader(this.withoutSpringJdbc).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(ApprovalStore.class).hasSingleBean(ThreadStore.class);
		});
	}

	@Test
	void storesSetToMemoryAreAChoiceAndStart() {
		this.contextRunner.withClassLoader(this.withoutSpringJdbc)
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:shared-store-check",
					"agent.middleware.approval.store.type=memory", "agent.middleware.threads.store.type=memory",
					"agent.middleware.rate-limit.store.type=memory", "agent.middleware.cache.store.type=memory",
					"agent.middleware.mcp.sessions.store.type=memory", "agent.middleware.audit.store.type=memory")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anAuditStoreOnADatabaseWithoutSpringJdbcFailsStartupNamingIt() {
		this.contextRunner.withClassLoader(this.withoutSpringJdbc)
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:shared-store-check-audit",
					"agent.middleware.approval.store.type=memory", "agent.middleware.threads.store.type=memory",
					"agent.middleware.rate-limit.store.type=memory", "agent.middleware.cache.store.type=memory",
					"agent.middleware.mcp.sessions.store.type=memory")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("agent.middleware.audit.store.type=auto"));
	}

	@Test
	void withSpringJdbcTheDatabaseHoldsTheStores() {
		this.contextRunner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:shared-store-check-jdbc")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ThreadStore.class).getClass().getSimpleName()).isEqualTo("JdbcThreadStore");
				assertThat(context.getBean(ApprovalStore.class).getClass().getSimpleName())
					.isEqualTo("JdbcApprovalStore");
			});
	}

	private FailureAnalysis startAndAnalyze(ApplicationContextRunner runner) {
		AtomicReference<Environment> environment = new AtomicReference<>();
		AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
		runner.withInitializer((context) -> environment.set(context.getEnvironment())).run((context) -> {
			assertThat(context).hasFailed();
			analysis.set(new AgentMiddlewareFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
			assertThat(analysis.get()).as("analysis of %s", context.getStartupFailure()).isNotNull();
		});
		return analysis.get();
	}

}
