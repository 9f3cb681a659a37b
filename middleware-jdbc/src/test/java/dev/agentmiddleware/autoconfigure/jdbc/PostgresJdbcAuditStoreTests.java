package dev.agentmiddleware.autoconfigure.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;

@RequiresService(TestService.POSTGRES)
class PostgresJdbcAuditStoreTests extends JdbcAuditStoreContract {

	private final PostgresTestDatabase database = PostgresTestDatabase.createSchema();

	private final HikariDataSource dataSource = new HikariDataSource();

	PostgresJdbcAuditStoreTests() {
		this.dataSource.setJdbcUrl(this.database.jdbcUrl());
		this.dataSource.setUsername(this.database.username());
		this.dataSource.setPassword(this.database.password());
		this.dataSource.setMaximumPoolSize(8);
	}

	@AfterEach
	void dropSchema() {
		this.dataSource.close();
		this.database.close();
	}

	@Override
	DataSource dataSource() {
		return this.dataSource;
	}

}
