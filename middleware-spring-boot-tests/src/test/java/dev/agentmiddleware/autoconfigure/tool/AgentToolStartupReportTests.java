package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class AgentToolStartupReportTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ApprovalAutoConfiguration.class, AuditAutoConfiguration.class, ApprovalWebAutoConfiguration.class,
				McpApprovalAutoConfiguration.class));

	@Test
	void withoutADataSourceTheLineNamesTheStoresInMemory(CapturedOutput output) {
		ready(this.contextRunner);
		assertThat(reportLine(output)).endsWith("; approval store: memory; thread store: memory; audit store: memory");
	}

	@Test
	void withADataSourceTheLineNamesTheJdbcStoresTheirDatabaseAndTheDataSourceType(CapturedOutput output) {
		ready(this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues(
					"spring.datasource.url=jdbc:h2:mem:report-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"));
		assertThat(reportLine(output)).endsWith(
				"; approval store: jdbc (H2, HikariDataSource); thread store: jdbc (H2, HikariDataSource); audit store: jdbc (H2, HikariDataSource)");
	}

	@Test
	void aStoreOfTheApplicationsOwnIsNamedByItsClass(CapturedOutput output) {
		ready(this.contextRunner.withBean(ThreadStore.class, OwnThreadStore::new));
		assertThat(reportLine(output))
			.endsWith("; thread store: " + OwnThreadStore.class.getName() + "; audit store: memory");
	}

	private static void ready(ApplicationContextRunner runner) {
		runner.run((context) -> {
			assertThat(context).hasNotFailed();
			context.publishEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0],
					context.getSourceApplicationContext(), Duration.ZERO));
		});
	}

	private static String reportLine(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("Agent tool middleware: "))
			.reduce((first, second) -> {
				throw new AssertionError("more than one report line");
			})
			.orElseThrow(() -> new AssertionError("no report line in:\n" + output));
	}

	static final class OwnThreadStore implements ThreadStore {

		private final InMemoryThreadStore delegate = new InMemoryThreadStore(10);

		@Override
		public ThreadMetadata load(String threadId) {
			return this.delegate.load(threadId);
		}

		@Override
		public boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values) {
			return this.delegate.compareAndSet(current, values);
		}

	}

}
