package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.util.List;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample started as one instance of a cluster, with Spring Boot's own
 * {@code spring.datasource.*} properties only: every shared store selects PostgreSQL by
 * itself and creates its table in the schema.
 */
@RequiresService(TestService.POSTGRES)
class SampleOnPostgresIntegrationTests {

	@TempDir
	Path workspace;

	@Test
	void withBootsDataSourcePropertiesOnlyEverySharedStoreUsesPostgres() {
		try (PostgresTestDatabase database = PostgresTestDatabase.createSchema()) {
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class).run(
					"--server.port=0", "--spring.jmx.enabled=false", "--sample.workspace.root=" + this.workspace,
					"--sample.approver.username=alice", "--sample.approver.password=alice-secret",
					"--spring.datasource.url=" + database.jdbcUrl(),
					"--spring.datasource.username=" + database.username(),
					"--spring.datasource.password=" + database.password())) {
				DataSource dataSource = context.getBean(DataSource.class);
				List<String> tables = new JdbcTemplate(dataSource).queryForList(
						"SELECT table_name FROM information_schema.tables WHERE table_schema = ?", String.class,
						database.schema());
				assertThat(tables).contains("agent_mcp_session", "agent_approval_request", "agent_thread_metadata",
						"agent_cache_invalidation", "agent_rate_limit_bucket");
			}
		}
	}

}
