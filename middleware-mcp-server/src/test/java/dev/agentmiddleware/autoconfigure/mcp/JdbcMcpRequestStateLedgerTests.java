package dev.agentmiddleware.autoconfigure.mcp;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.mcp.McpRequestStates.Binding;
import dev.agentmiddleware.autoconfigure.mcp.McpRequestStatesTests.MovableClock;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The ledger of used {@code requestState}s in the database the instances share (table
 * {@code agent_mcp_request_state}, created with the MCP session tables): a state used on
 * one instance is refused on another, and expired rows are deleted.
 */
class JdbcMcpRequestStateLedgerTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

	private final MovableClock clock = new MovableClock();

	private final DataSource dataSource = h2();

	@Test
	void aStateUsedOnOneInstanceIsRefusedOnAnother() {
		McpRequestStates instanceA = states();
		McpRequestStates instanceB = states();
		Binding call = Binding.of(JSON, "tools/call", Map.of("name", "plan_trip"), "alice");
		String state = instanceA.seal(call, Map.of("who", Map.of("action", "decline")));
		assertThat(instanceB.open(state, call)).containsOnlyKeys("who");
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> instanceA.open(state, call))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().message()).contains("was already used"));
	}

	@Test
	void expiredRowsAreDeletedAsNewOnesCome() {
		JdbcMcpRequestStateLedger ledger = new JdbcMcpRequestStateLedger(this.dataSource, this.clock);
		for (int i = 0; i < 254; i++) {
			assertThat(ledger.consume("state-" + i, this.clock.instant().plusSeconds(60))).isTrue();
		}
		assertThat(ledger.consume("state-0", this.clock.instant().plusSeconds(60))).isFalse();
		this.clock.advance(Duration.ofMinutes(2));
		assertThat(ledger.consume("fresh", this.clock.instant().plusSeconds(60))).isTrue();
		assertThat(new JdbcTemplate(this.dataSource)
			.queryForObject("SELECT COUNT(*) FROM " + JdbcMcpRequestStateLedger.TABLE, Integer.class)).isEqualTo(1);
	}

	private McpRequestStates states() {
		return new McpRequestStates(JSON, KEY, Duration.ofMinutes(10), this.clock,
				new JdbcMcpRequestStateLedger(this.dataSource, this.clock));
	}

	private static DataSource h2() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:mcp-request-states-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		new ResourceDatabasePopulator(new ClassPathResource("schema-h2.sql", JdbcMcpSessionRegistry.class))
			.execute(dataSource);
		return dataSource;
	}

}
