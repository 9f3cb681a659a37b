package dev.agentmiddleware.autoconfigure.jdbc;

import java.util.UUID;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;

class H2JdbcAuditStoreTests extends JdbcAuditStoreContract {

	private final JdbcDataSource dataSource = new JdbcDataSource();

	H2JdbcAuditStoreTests() {
		this.dataSource.setURL("jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@Override
	DataSource dataSource() {
		return this.dataSource;
	}

}
