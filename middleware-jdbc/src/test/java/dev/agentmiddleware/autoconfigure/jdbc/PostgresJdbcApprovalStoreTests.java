package dev.agentmiddleware.autoconfigure.jdbc;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC approval store on a real PostgreSQL server, in a fresh schema, with
 * LISTEN/NOTIFY.
 */
@RequiresService(TestService.POSTGRES)
class PostgresJdbcApprovalStoreTests extends JdbcApprovalStoreContractTests {

	private PostgresTestDatabase database;

	private DataSource dataSource;

	@BeforeEach
	void createSchema() {
		this.database = PostgresTestDatabase.createSchema();
		this.dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
				this.database.username(), this.database.password());
	}

	@AfterEach
	void dropSchema() {
		this.database.close();
	}

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

	@Test
	void announcesDecisionsWithNotify() {
		assertThat(store("a").isPostgres()).isTrue();
	}

}
