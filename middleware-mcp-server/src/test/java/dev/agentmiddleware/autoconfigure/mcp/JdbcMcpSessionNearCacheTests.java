package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The near-cache of {@link JdbcMcpSessionRegistry} on PostgreSQL, with two registries on
 * one schema, each on its own pool as two instances are: a request on a session whose
 * copy was checked against its row less than a touch interval ago, while the instance
 * heard every end of a session, does not read the row (counted on the real pool); a
 * session ended on one instance, or whose row an operator deleted, is refused on the
 * other once it heard the row's deletion; while the listening connection is down every
 * request reads its row, and a row deleted meanwhile is refused after it listens again; a
 * copy served from the near-cache still refuses another principal.
 */
@RequiresService(TestService.POSTGRES)
class JdbcMcpSessionNearCacheTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

	// min(30 min / 20, 30 s)
	private static final Duration TOUCH_INTERVAL = Duration.ofSeconds(30);

	private static final Duration PROBE_INTERVAL = Duration.ofMillis(200);

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final McpSchema.InitializeRequest INITIALIZE = new McpSchema.InitializeRequest("2025-11-25",
			McpSchema.ClientCapabilities.builder().build(), new McpSchema.Implementation("client", "1.0"));

	private static final McpStreamableServerSession.Factory SESSIONS = McpTestSessions.factory();

	@AutoClose
	private final McpTestDatabase database = McpTestDatabase.postgres();

	private final MutableClock clock = new MutableClock();

	private final List<HikariDataSource> pools = new ArrayList<>();

	private final List<JdbcMcpSessionRegistry> registries = new ArrayList<>();

	@AfterEach
	void closeInstances() {
		for (JdbcMcpSessionRegistry registry : this.registries) {
			registry.endAll();
		}
		for (HikariDataSource pool : this.pools) {
			pool.close();
		}
	}

	@Test
	void aHotSessionIsServedWithoutReadingItsRowAndReadsItOncePerTouchInterval() {
		Instance first = instance();
		Instance second = instance();
		String id = start(first);

		// Started on the first instance: checked at its start
		for (int i = 0; i < 100; i++) {
			this.clock.advance(Duration.ofMillis(100));
			assertThat(first.registry().find(id, "alice")).isNotNull();
		}
		assertThat(first.rowReads()).as("row reads on the instance that started it").isZero();

		// The second instance reads the row once, to recreate the session
		assertThat(second.registry().find(id, "alice")).isNotNull();
		assertThat(second.rowReads()).isOne();
		for (int i = 0; i < 100; i++) {
			this.clock.advance(Duration.ofMillis(100));
			assertThat(second.registry().find(id, "alice")).isNotNull();
		}
		assertThat(second.rowReads()).as("row reads of 100 more requests within the interval").isOne();

		// Once the stored last use is a touch interval old: read and written again
		this.clock.advance(TOUCH_INTERVAL);
		assertThat(second.registry().find(id, "alice")).isNotNull();
		assertThat(second.rowReads()).isEqualTo(2);
		assertThat(storedLastUse(id)).isEqualTo(this.clock.millis());
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(second.registry().find(id, "alice")).isNotNull();
		assertThat(second.rowReads()).isEqualTo(2);
	}

	@Test
	void aSessionEndedOnOneInstanceIsRefusedOnTheOtherOnceItHeardTheEnd() {
		Instance first = instance();
		Instance second = instance();
		String id = start(first);
		McpLiveSession copy = second.registry().find(id, "alice");
		assertThat(copy).isNotNull();
		assertThat(second.registry().find(id, "alice")).as("served from the near-cache").isSameAs(copy);

		first.registry().end(id);
		// Until the end is heard, a request may still get the copy; then its copy is
		// ended and dropped, and every request is refused
		await().atMost(WAIT).until(() -> second.registry().get(id) == null);
		assertThat(copy.isEnded()).isTrue();
		int reads = second.rowReads();
		assertThat(second.registry().find(id, "alice")).isNull();
		assertThat(second.rowReads()).as("the row is read, and is gone").isEqualTo(reads + 1);
		assertThat(first.registry().find(id, "alice")).isNull();
	}

	@Test
	void aRowDeletedByAnOperatorEndsTheCopiesOfEveryInstance() {
		Instance first = instance();
		Instance second = instance();
		String id = start(first);
		assertThat(second.registry().find(id, "alice")).isNotNull();

		jdbc().update("DELETE FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE id = ?", IdDigests.of(id));
		await().atMost(WAIT).until(() -> first.registry().get(id) == null && second.registry().get(id) == null);
		assertThat(first.registry().find(id, "alice")).isNull();
		assertThat(second.registry().find(id, "alice")).isNull();
	}

	@Test
	void whileItCannotListenAnInstanceReadsTheRowOfEveryRequestAndRefusesARowDeletedMeanwhile() {
		Instance first = instance();
		Instance second = instance();
		String kept = start(first);
		String deleted = start(first);
		assertThat(second.registry().find(kept, "alice")).isNotNull();
		assertThat(second.registry().find(deleted, "alice")).isNotNull();
		assertThat(second.registry().find(kept, "alice")).isNotNull();
		assertThat(second.rowReads()).isEqualTo(2);

		// Its listening connection is killed, and it cannot get another one yet
		second.refuseListener(true);
		int pid = second.registry().listenerBackendPid();
		assertThat(jdbc().queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, pid)).isTrue();
		await().atMost(WAIT).until(() -> !second.registry().hearsEnds());
		for (int i = 1; i <= 3; i++) {
			assertThat(second.registry().find(kept, "alice")).isNotNull();
			assertThat(second.rowReads()).as("row reads after %d requests while not listening", i).isEqualTo(2 + i);
		}
		// Deleted while nobody listened on the second instance: its end is not heard
		jdbc().update("DELETE FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE id = ?", IdDigests.of(deleted));
		assertThat(second.registry().get(deleted)).isNotNull();

		second.refuseListener(false);
		await().atMost(WAIT).until(() -> second.registry().hearsEnds());
		assertThat(second.registry().listenerBackendPid()).isNotEqualTo(pid);
		// A copy checked before the new LISTEN is not trusted: its row is read
		assertThat(second.registry().find(deleted, "alice")).isNull();
		assertThat(second.registry().get(deleted)).isNull();
		int reads = second.rowReads();
		assertThat(second.registry().find(kept, "alice")).isNotNull();
		assertThat(second.registry().find(kept, "alice")).isNotNull();
		assertThat(second.rowReads()).as("checked once under the new LISTEN, then trusted").isEqualTo(reads + 1);
	}

	@Test
	void aCopyServedFromTheNearCacheStillRefusesAnotherPrincipal() {
		Instance first = instance();
		Instance second = instance();
		String id = start(first);
		assertThat(second.registry().find(id, "alice")).isNotNull();
		int reads = second.rowReads();

		assertThat(second.registry().find(id, "mallory")).isNull();
		assertThat(second.registry().find(id, null)).isNull();
		assertThat(first.registry().find(id, "mallory")).isNull();
		assertThat(first.registry().find(id, null)).isNull();
		assertThat(second.registry().find(id, "alice")).isNotNull();
		assertThat(second.rowReads()).as("all answered from the near-cache").isEqualTo(reads);
		assertThat(first.rowReads()).isZero();
	}

	@Test
	void theRowOfADeletedSessionIsAnnouncedByItsDigestOnTheChannelOfItsSchema() throws Exception {
		Instance first = instance();
		String id = start(first);
		String schema = jdbc().queryForObject("SELECT current_schema()", String.class);
		try (HikariDataSource listening = this.database.pool(1); Connection connection = listening.getConnection()) {
			PGConnection pg = connection.unwrap(PGConnection.class);
			try (Statement statement = connection.createStatement()) {
				statement.execute("LISTEN \"agent_mcp_session_" + md5(schema) + "\"");
			}
			first.registry().end(id);
			List<String> payloads = new ArrayList<>();
			await().atMost(WAIT).until(() -> {
				PGNotification[] received = pg.getNotifications(100);
				if (received != null) {
					for (PGNotification notification : received) {
						payloads.add(notification.getParameter());
					}
				}
				return !payloads.isEmpty();
			});
			assertThat(payloads).containsExactly(IdDigests.of(id)).doesNotContain(id);
		}
	}

	private String md5(String text) {
		return jdbc().queryForObject("SELECT md5(?)", String.class, text);
	}

	private String start(Instance instance) {
		McpStreamableServerSession.McpStreamableServerSessionInit init = instance.registry()
			.start(SESSIONS, INITIALIZE, "alice");
		assertThat(init).isNotNull();
		return init.session().getId();
	}

	// A registry on a pool of its own, whose reads of session rows are counted, that
	// heard the ends of sessions
	private Instance instance() {
		HikariDataSource pool = this.database.pool(4);
		this.pools.add(pool);
		CountingDataSource counting = new CountingDataSource(pool);
		JdbcMcpSessionRegistry registry = new JdbcMcpSessionRegistry(counting, JSON, IDLE_TIMEOUT, 100, this.clock,
				() -> SESSIONS, PROBE_INTERVAL, Duration.ofMillis(100));
		this.registries.add(registry);
		await().atMost(WAIT).until(registry::hearsEnds);
		return new Instance(registry, counting);
	}

	private JdbcTemplate jdbc() {
		return new JdbcTemplate(this.pools.get(0));
	}

	private long storedLastUse(String id) {
		Long lastUsed = jdbc().queryForObject("SELECT last_used FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE id = ?",
				Long.class, IdDigests.of(id));
		assertThat(lastUsed).isNotNull();
		return lastUsed;
	}

	private record Instance(JdbcMcpSessionRegistry registry, CountingDataSource dataSource) {

		int rowReads() {
			return this.dataSource.rowReads.get();
		}

		void refuseListener(boolean refuse) {
			this.dataSource.refuseListener = refuse;
		}

	}

	/**
	 * The real pool, counting the statements that read a session's row (a request's
	 * {@link JdbcMcpSessionRegistry#FIND}), and refusing connections to the listening
	 * thread when told to (a database it cannot reach).
	 */
	static final class CountingDataSource extends DelegatingDataSource {

		final AtomicInteger rowReads = new AtomicInteger();

		volatile boolean refuseListener;

		CountingDataSource(HikariDataSource pool) {
			super(pool);
		}

		@Override
		public Connection getConnection() throws SQLException {
			if (this.refuseListener && Thread.currentThread().getName().equals(PostgresMcpSessionEnds.THREAD_NAME)) {
				throw new SQLException("Refused by the test", "08001");
			}
			Connection connection = super.getConnection();
			return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
					(proxy, method, args) -> {
						if (method.getName().equals("prepareStatement") && args != null && args.length > 0
								&& args[0] instanceof String sql && sql.contains(JdbcMcpSessionRegistry.FIND)) {
							this.rowReads.incrementAndGet();
						}
						try {
							return method.invoke(connection, args);
						}
						catch (InvocationTargetException ex) {
							throw ex.getTargetException();
						}
					});
		}

	}

}
