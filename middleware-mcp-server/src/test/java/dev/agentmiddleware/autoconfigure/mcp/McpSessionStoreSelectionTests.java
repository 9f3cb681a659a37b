package dev.agentmiddleware.autoconfigure.mcp;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the transport keeps its sessions, by
 * {@code agent.middleware.mcp.sessions.store.type}: in memory by default and with
 * {@code auto} on an embedded database (one instance needs nothing else), in table
 * {@code agent_mcp_session} when {@code jdbc} is asked for; {@code jdbc} without a
 * {@code DataSource} fails startup naming the property.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpSessionStoreSelectionTests {

	private final WebApplicationContextRunner contextRunner = McpStoreSelectionContext.contextRunner();

	@Test
	void autoOnAnEmbeddedH2KeepsTheSessionsInMemory() {
		DataSource dataSource = McpStoreSelectionContext.embeddedH2("mcp-sessions");
		this.contextRunner.withBean(DataSource.class, () -> dataSource).run((context) -> {
			assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
			assertThat(McpStoreSelectionContext.tables(dataSource)).doesNotContain("AGENT_MCP_SESSION");
		});
	}

	@Test
	void jdbcKeepsTheSessionsInTheDatabaseCreatingTheTable() {
		DataSource dataSource = McpStoreSelectionContext.embeddedH2("mcp-sessions");
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc",
					"agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=")
			.run((context) -> {
				assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
				assertThat(McpStoreSelectionContext.tables(dataSource)).contains("AGENT_MCP_SESSION");
				assertThat(context.getBean(HardenedStreamableHttpTransport.class).sessionCount()).isZero();
			});
	}

	@Test
	void aRequestStateKeyWithTheSessionsInMemorySaysThatSingleUseIsCheckedPerInstance(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues(
					"agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=")
			.run((context) -> assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class));
		assertThat(output).contains("its single use is checked in memory, by this instance only",
				"keep MCP sessions in the database");
		assertThat(output).doesNotContain("dGVzdC1yZXF1ZXN0");
	}

	@Test
	void aRequestStateKeyWithTheSessionsInTheDatabaseSaysNothingOfSingleUse(CapturedOutput output) {
		this.contextRunner.withBean(DataSource.class, () -> McpStoreSelectionContext.embeddedH2("mcp-sessions"))
			.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc",
					"agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=")
			.run((context) -> assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class));
		assertThat(output).doesNotContain("single use is checked in memory");
	}

	@Test
	void jdbcWithoutARequestStateKeyFailsStartupNamingTheProperty() {
		DataSource dataSource = McpStoreSelectionContext.embeddedH2("mcp-sessions");
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidToolConfigurationException.class)
				.hasMessageContaining("agent.middleware.mcp.request-state.secret")
				.hasMessageContaining("several instances"));
	}

	@Test
	void aRequestStateKeyShorterThan32BytesFailsStartup() {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.request-state.secret=c2hvcnQ=")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.middleware.mcp.request-state.secret")
				.hasMessageContaining("fewer than 32"));
	}

	@Test
	void jdbcWithoutADataSourceFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.middleware.mcp.sessions.store.type")
				.hasMessageContaining("DataSource"));
	}

}
