package dev.agentmiddleware.sample;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Two sample instances on one real PostgreSQL server, in a fresh schema. Waiting calls
 * poll only once a minute, so a release within the test's 20 seconds proves the
 * LISTEN/NOTIFY wake-up.
 */
@RequiresService(TestService.POSTGRES)
class PostgresTwoInstanceApprovalIntegrationTests extends TwoInstanceApprovalTests {

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

	@Override
	protected String pollInterval() {
		return "1m";
	}

	@Override
	protected String abandonAfter() {
		// Long enough that waiting calls do not wake for their heartbeat either during
		// the test.
		return "10m";
	}

}
