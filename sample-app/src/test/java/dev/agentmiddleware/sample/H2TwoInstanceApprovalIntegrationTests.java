package dev.agentmiddleware.sample;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Two sample instances sharing an approval store in embedded H2, released by polling.
 */
class H2TwoInstanceApprovalIntegrationTests extends TwoInstanceApprovalTests {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:two-instances-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

	@Override
	protected String pollInterval() {
		return "200ms";
	}

}
