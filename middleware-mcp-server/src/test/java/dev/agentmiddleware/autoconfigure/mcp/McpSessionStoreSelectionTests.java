package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerJsonMapperAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

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

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class))
		.withPropertyValues("spring.ai.mcp.server.protocol=STREAMABLE");

	@Test
	void autoOnAnEmbeddedH2KeepsTheSessionsInMemory() {
		DataSource dataSource = h2();
		this.contextRunner.withBean(DataSource.class, () -> dataSource).run((context) -> {
			assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
			assertThat(tables(dataSource)).doesNotContain("AGENT_MCP_SESSION");
		});
	}

	@Test
	void jdbcKeepsTheSessionsInTheDatabaseCreatingTheTable() {
		DataSource dataSource = h2();
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc",
					"agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=")
			.run((context) -> {
				assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
				assertThat(tables(dataSource)).contains("AGENT_MCP_SESSION");
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
		this.contextRunner.withBean(DataSource.class, McpSessionStoreSelectionTests::h2)
			.withPropertyValues("agent.middleware.mcp.sessions.store.type=jdbc",
					"agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=")
			.run((context) -> assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class));
		assertThat(output).doesNotContain("single use is checked in memory");
	}

	@Test
	void jdbcWithoutARequestStateKeyFailsStartupNamingTheProperty() {
		DataSource dataSource = h2();
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

	private static DataSource h2() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:mcp-sessions-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	private static List<String> tables(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForList(
				"SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'", String.class);
	}

}
