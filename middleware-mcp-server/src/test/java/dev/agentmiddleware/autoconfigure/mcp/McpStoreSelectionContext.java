package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import org.h2.jdbcx.JdbcDataSource;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerJsonMapperAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the tests of the choice of a store by {@code store.type} start: the MCP server's
 * auto-configurations on the streamable transport, and, where a test gives it one, an
 * embedded H2 database whose tables the test then lists.
 */
final class McpStoreSelectionContext {

	private McpStoreSelectionContext() {
	}

	/**
	 * A runner of the MCP server's auto-configurations on the streamable transport.
	 * @return a new runner
	 */
	static WebApplicationContextRunner contextRunner() {
		return new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
					AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
					McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class))
			.withPropertyValues("spring.ai.mcp.server.protocol=STREAMABLE");
	}

	/**
	 * A new in-memory H2 database, kept until the JVM ends.
	 * @param name the start of the database's name
	 * @return its data source
	 */
	static DataSource embeddedH2(String name) {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	/**
	 * The tables of an H2 database's {@code PUBLIC} schema.
	 * @param dataSource the database
	 * @return the tables' names, in upper case
	 */
	static List<String> tables(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForList(
				"SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'", String.class);
	}

}
