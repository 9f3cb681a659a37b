package dev.agentmiddleware.autoconfigure.mcp;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the transport keeps the tasks of MCP 2026-07-28's tasks extension, by
 * {@code agent.middleware.mcp.tasks.store.type}, chosen as the sessions' store is: in
 * memory by default and with {@code auto} on an embedded database, in table
 * {@code agent_mcp_task} when {@code jdbc} is asked for; {@code jdbc} without a
 * {@code DataSource} fails startup naming the property.
 */
class McpTaskStoreSelectionTests {

	private final WebApplicationContextRunner contextRunner = McpStoreSelectionContext.contextRunner();

	@Test
	void autoOnAnEmbeddedH2KeepsTheTasksInMemory() {
		DataSource dataSource = McpStoreSelectionContext.embeddedH2("mcp-tasks");
		this.contextRunner.withBean(DataSource.class, () -> dataSource).run((context) -> {
			assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
			assertThat(McpStoreSelectionContext.tables(dataSource)).doesNotContain("AGENT_MCP_TASK");
		});
	}

	@Test
	void jdbcKeepsTheTasksInTheDatabaseCreatingTheTable() {
		DataSource dataSource = McpStoreSelectionContext.embeddedH2("mcp-tasks");
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("agent.middleware.mcp.tasks.store.type=jdbc")
			.run((context) -> {
				assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
				assertThat(McpStoreSelectionContext.tables(dataSource)).contains("AGENT_MCP_TASK")
					.doesNotContain("AGENT_MCP_SESSION");
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

}
