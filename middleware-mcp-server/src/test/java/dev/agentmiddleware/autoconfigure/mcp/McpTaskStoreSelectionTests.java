package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerJsonMapperAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the transport keeps the tasks of MCP 2026-07-28's tasks extension, by
 * {@code agent.middleware.mcp.tasks.store.type}, chosen as the sessions' store is: in
 * memory by default and with {@code auto} on an embedded database, in table
 * {@code agent_mcp_task} when {@code jdbc} is asked for; {@code jdbc} without a
 * {@code DataSource} fails startup naming the property.
 */
class McpTaskStoreSelectionTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class))
		.withPropertyValues("spring.ai.mcp.server.protocol=STREAMABLE");

	@Test
	void autoOnAnEmbeddedH2KeepsTheTasksInMemory() {
		DataSource dataSource = h2();
		this.contextRunner.withBean(DataSource.class, () -> dataSource).run((context) -> {
			assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
			assertThat(tables(dataSource)).doesNotContain("AGENT_MCP_TASK");
		});
	}

	@Test
	void jdbcKeepsTheTasksInTheDatabaseCreatingTheTable() {
		DataSource dataSource = h2();
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("agent.middleware.mcp.tasks.store.type=jdbc")
			.run((context) -> {
				assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
				assertThat(tables(dataSource)).contains("AGENT_MCP_TASK").doesNotContain("AGENT_MCP_SESSION");
			});
	}

	@Test
	void jdbcWithoutADataSourceFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.tasks.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.middleware.mcp.tasks.store.type")
				.hasMessageContaining("DataSource"));
	}

	private static DataSource h2() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:mcp-tasks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	private static List<String> tables(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForList(
				"SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'", String.class);
	}

}
