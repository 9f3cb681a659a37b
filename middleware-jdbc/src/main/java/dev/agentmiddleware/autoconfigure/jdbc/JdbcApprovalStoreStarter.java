package dev.agentmiddleware.autoconfigure.jdbc;

import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import java.time.Clock;
import java.util.UUID;

import javax.sql.DataSource;

/**
 * Makes the {@link JdbcApprovalStore} of {@code agent.middleware.approval.store.*}: this
 * instance's id (configured, or a random one per start), the schema created when asked,
 * and the store started (polling, and on PostgreSQL listening for decisions).
 */
final class JdbcApprovalStoreStarter {

	private JdbcApprovalStoreStarter() {
	}

	static JdbcApprovalStore started(DataSource dataSource, ApprovalProperties.Store store, Clock clock) {
		String instanceId = (store.getInstanceId() != null) ? store.getInstanceId() : UUID.randomUUID().toString();
		JdbcApprovalStore jdbc = new JdbcApprovalStore(dataSource, clock, store.getPollInterval(),
				store.getAbandonAfter(), instanceId);
		if (store.isInitializeSchema()) {
			jdbc.initializeSchema();
		}
		jdbc.start();
		return jdbc;
	}

}
