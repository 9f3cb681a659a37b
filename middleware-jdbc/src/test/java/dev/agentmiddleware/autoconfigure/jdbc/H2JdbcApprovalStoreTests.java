package dev.agentmiddleware.autoconfigure.jdbc;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The JDBC approval store on embedded H2.
 */
class H2JdbcApprovalStoreTests extends JdbcApprovalStoreContractTests {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:approval-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

}
