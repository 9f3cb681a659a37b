package dev.agentmiddleware.autoconfigure.thread;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.postgresql.ds.PGSimpleDataSource;

@RequiresService(TestService.POSTGRES)
class PostgresJdbcThreadStoreTests extends JdbcThreadStoreContract {

	private final PostgresTestDatabase database = PostgresTestDatabase.createSchema();

	private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

	PostgresJdbcThreadStoreTests() {
		this.dataSource.setURL(this.database.jdbcUrl());
		this.dataSource.setUser(this.database.username());
		this.dataSource.setPassword(this.database.password());
	}

	@AfterEach
	void dropSchema() {
		this.database.close();
	}

	@Override
	DataSource dataSource() {
		return this.dataSource;
	}

}
