package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@link McpRequestStateLedger} every instance shares: the ids of the states used in
 * the table {@code agent_mcp_request_state} (created with the MCP session tables, see
 * {@link JdbcMcpSessionRegistry}), one row per state until it expires. A state's first
 * use inserts its row; a second use, on any instance, finds the key taken. Expired rows
 * are deleted every few hundred uses.
 */
final class JdbcMcpRequestStateLedger implements McpRequestStateLedger {

	static final String TABLE = "agent_mcp_request_state";

	private static final int PURGE_EVERY = 256;

	private final JdbcTemplate jdbc;

	private final Clock clock;

	private final AtomicInteger uses = new AtomicInteger();

	JdbcMcpRequestStateLedger(DataSource dataSource, Clock clock) {
		this.jdbc = new JdbcTemplate(dataSource);
		this.clock = clock;
	}

	@Override
	public boolean consume(String stateId, Instant expiresAt) {
		if (this.uses.incrementAndGet() % PURGE_EVERY == 0) {
			this.jdbc.update("DELETE FROM " + TABLE + " WHERE expires_at < ?", this.clock.millis());
		}
		try {
			this.jdbc.update("INSERT INTO " + TABLE + " (id, expires_at) VALUES (?, ?)", stateId,
					expiresAt.toEpochMilli());
			return true;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

}
