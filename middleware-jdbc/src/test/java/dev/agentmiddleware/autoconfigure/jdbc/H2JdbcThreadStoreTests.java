package dev.agentmiddleware.autoconfigure.jdbc;

import java.util.UUID;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;

class H2JdbcThreadStoreTests extends JdbcThreadStoreContract {

	private final JdbcDataSource dataSource = new JdbcDataSource();

	H2JdbcThreadStoreTests() {
		this.dataSource.setURL("jdbc:h2:mem:threads-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@Override
	DataSource dataSource() {
		return this.dataSource;
	}

}
