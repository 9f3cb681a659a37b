package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link JdbcMcpSessionRegistry} costs the database under load, and that the
 * guarantees hold with it: a request writes {@code last_used} only when the stored value
 * is older than the touch interval ({@code min(idleTimeout / 20, 30 s)}), a session still
 * lives for the whole idle timeout after its last use and expires at most one interval
 * later, expired rows are deleted by the first start of each interval (not by every
 * start) and hold no slot meanwhile, and the cap is exact when two registries with pools
 * of ten start sessions at once, without any lock of the instance's own. On PostgreSQL
 * and on H2, on an injected clock.
 */
class JdbcMcpSessionRegistryUnderLoadTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

	// min(30 min / 20, 30 s)
	private static final Duration TOUCH_INTERVAL = Duration.ofSeconds(30);

	private static final McpSchema.InitializeRequest INITIALIZE = new McpSchema.InitializeRequest("2025-06-18",
			McpSchema.ClientCapabilities.builder().build(), new McpSchema.Implementation("client", "1.0"));

	private static final McpStreamableServerSession.Factory SESSIONS = McpTestSessions.factory();

	@Test
	void theTouchIntervalIsATwentiethOfTheIdleTimeoutAndAtMostThirtySeconds() {
		assertThat(JdbcMcpSessionRegistry.touchInterval(Duration.ofMinutes(30))).isEqualTo(Duration.ofSeconds(30));
		assertThat(JdbcMcpSessionRegistry.touchInterval(Duration.ofHours(8))).isEqualTo(Duration.ofSeconds(30));
		assertThat(JdbcMcpSessionRegistry.touchInterval(Duration.ofMinutes(5))).isEqualTo(Duration.ofSeconds(15));
		assertThat(JdbcMcpSessionRegistry.touchInterval(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(50));
	}

	@Nested
	class OnH2 extends UnderLoadRules {

		OnH2() {
			super(McpTestDatabase.h2("mcp-load"));
		}

		// No ends are heard on H2: no request skips its row
		@Test
		void everyRequestReadsItsSessionsRow() {
			HikariDataSource pool = pool();
			pools().add(pool);
			JdbcMcpSessionNearCacheTests.CountingDataSource counting = new JdbcMcpSessionNearCacheTests.CountingDataSource(
					pool);
			JdbcMcpSessionRegistry registry = new JdbcMcpSessionRegistry(counting, JSON, IDLE_TIMEOUT, 100, clock(),
					() -> SESSIONS);
			String id = start(registry);
			for (int i = 1; i <= 5; i++) {
				assertThat(registry.find(id, "alice")).isNotNull();
				assertThat(counting.rowReads).hasValue(i);
			}
			assertThat(registry.hearsEnds()).isFalse();
			registry.endAll();
		}

	}

	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgres extends UnderLoadRules {

		OnPostgres() {
			super(McpTestDatabase.postgres());
		}

		@Override
		boolean hearsEnds() {
			return true;
		}

		// The lock and the insert go in one message: the count must still be taken after
		// the lock is granted
		@Test
		void aStartWaitingForTheLockCountsTheSessionsStartedWhileItWaited() throws Exception {
			JdbcMcpSessionRegistry registry = registry(1);
			try (HikariDataSource otherInstance = pool();
					Connection connection = otherInstance.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute(startLock("pg_advisory_lock"));
				ExecutorService thread = Executors.newSingleThreadExecutor();
				try {
					Future<McpStreamableServerSession.@Nullable McpStreamableServerSessionInit> start = thread
						.submit(() -> registry.start(SESSIONS, INITIALIZE, "alice"));
					awaitAStartWaitingForTheLock();
					// The last free slot goes to another instance's start while this one
					// waits
					statement.execute("INSERT INTO " + JdbcMcpSessionRegistry.TABLE
							+ " (id, owner_name, protocol_version, initialize_request, created_at, last_used)"
							+ " VALUES ('started-elsewhere', NULL, '2025-06-18', '{}', " + this.clock().millis() + ", "
							+ this.clock().millis() + ")");
					statement.execute(startLock("pg_advisory_unlock"));
					assertThat(start.get(30, TimeUnit.SECONDS)).as("a start over the cap").isNull();
				}
				finally {
					thread.shutdownNow();
				}
			}
			assertThat(storedIds()).containsExactly("started-elsewhere");
		}

		// A table of the test's, and a trigger that inserts value into it for every
		// insert
		// into the sessions' table (level: ROW or STATEMENT)
		private void recordOnInsert(String table, String column, String value, String level) {
			jdbc().execute("CREATE TABLE " + table + " (" + column + ")");
			jdbc().execute("CREATE FUNCTION record_" + table + "() RETURNS trigger LANGUAGE plpgsql AS $$"
					+ " BEGIN INSERT INTO " + table + " VALUES (" + value + "); RETURN NULL; END $$");
			jdbc().execute("CREATE TRIGGER record_" + table + " AFTER INSERT ON " + JdbcMcpSessionRegistry.TABLE
					+ " FOR EACH " + level + " EXECUTE FUNCTION record_" + table + "()");
		}

		// Takes or releases the lock of the starts, as another instance's start would
		private static String startLock(String function) {
			return "SELECT " + function + "(" + JdbcMcpSessionRegistry.ADVISORY_LOCK_KEY
					+ ", hashtext(current_schema()))";
		}

		private void awaitAStartWaitingForTheLock() {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> jdbc().queryForObject(
						"SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
						Integer.class) == 1);
		}

		// Starts asked while a start is being written go to the database together: one
		// statement, under one lock, inserts as many of them as the cap leaves room for
		@Test
		void startsAskedWhileAStartIsWrittenGoInOneStatementThatAdmitsOnlyAsManyAsTheCapLeaves() throws Exception {
			JdbcMcpSessionRegistry registry = registry(4);
			// A trigger of the test's counts the insert statements
			recordOnInsert("insert_statements", "at BIGINT", "1", "STATEMENT");
			ExecutorService threads = Executors.newFixedThreadPool(6);
			try (HikariDataSource otherInstance = pool();
					Connection connection = otherInstance.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute(startLock("pg_advisory_lock"));
				Future<@Nullable String> first = threads.submit(() -> startOrNull(registry));
				awaitAStartWaitingForTheLock();
				List<Future<@Nullable String>> group = new ArrayList<>();
				for (int i = 0; i < 5; i++) {
					group.add(threads.submit(() -> startOrNull(registry)));
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> registry.statements().startsWaiting() == 5);
				statement.execute(startLock("pg_advisory_unlock"));

				assertThat(first.get(30, TimeUnit.SECONDS)).isNotNull();
				List<String> started = new ArrayList<>();
				for (Future<@Nullable String> start : group) {
					String id = start.get(30, TimeUnit.SECONDS);
					if (id != null) {
						started.add(id);
					}
				}
				assertThat(started).as("the starts of the group under the cap").hasSize(3);
			}
			finally {
				threads.shutdownNow();
			}
			assertThat(storedIds()).hasSize(4);
			assertThat(registry.size()).isEqualTo(4);
			assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM insert_statements", Integer.class))
				.as("insert statements for six starts")
				.isEqualTo(2);
		}

		// Under load the rows of ended sessions pile up until vacuum: the cap's count,
		// under the lock, must skip them through the index of last_used instead of
		// reading the table, which the planner chooses for a small table without the
		// start's settings
		@Test
		void theCountOfAStartReadsTheIndexNotTheRowsOfEndedSessions() {
			JdbcMcpSessionRegistry registry = registry(5);
			aTableJustVacuumed();

			String plan = plan(startLock("pg_advisory_xact_lock") + ", " + JdbcMcpSessionStatements.START_SETTINGS,
					registry.statements().insert(1), "a", null, "2025-11-25", "{}", 1L, 1L, 5, 0L);
			assertThat(plan).as("the plan of a start")
				.contains("Index Only Scan using agent_mcp_session_last_used")
				.doesNotContain("Seq Scan on " + JdbcMcpSessionRegistry.TABLE)
				.doesNotContain("Bitmap Heap Scan on " + JdbcMcpSessionRegistry.TABLE);
		}

		// The same for every statement by key (a group of ends, a request's read of its
		// row and its write of the last use): its rows are found by their key, not by a
		// scan of the table, which the planner chooses for a table of one page without
		// the setting, even for one key
		@Test
		void statementsByKeyFindTheirRowsByTheKeyNotByReadingTheTable() {
			JdbcMcpSessionRegistry registry = registry(5);
			aTableJustVacuumed();
			assertFoundByKey("three ends", registry.statements().delete(3), "a", "b", "c");
			assertFoundByKey("one end", registry.statements().delete(1), "a");
			assertFoundByKey("a request's read", JdbcMcpSessionRegistry.FIND, "a");
			// Every row is older than the time written, as in use
			long now = System.currentTimeMillis();
			assertFoundByKey("a request's touch", JdbcMcpSessionRegistry.TOUCH, now, "a", now);
		}

		private void assertFoundByKey(String what, String statement, Object... arguments) {
			assertThat(plan(JdbcMcpSessionStatements.BY_KEY_SETTINGS, statement, arguments)).as("the plan of " + what)
				.contains("agent_mcp_session_pkey")
				.doesNotContain("Seq Scan on " + JdbcMcpSessionRegistry.TABLE);
		}

		// The table as autovacuum leaves it under load: a few live rows on one page,
		// which the planner sees when the statements are planned again (and a
		// connection's prepared statements keep that plan while the rows of ended
		// sessions pile up again until the next vacuum)
		private void aTableJustVacuumed() {
			jdbc().update("INSERT INTO " + JdbcMcpSessionRegistry.TABLE
					+ " (id, initialize_request, created_at, last_used) SELECT md5(g::text) || md5((g + 1)::text),"
					+ " '{}', g, g FROM generate_series(1, 8) AS g");
			jdbc().execute("VACUUM ANALYZE " + JdbcMcpSessionRegistry.TABLE);
		}

		// The plan of a statement run after the given settings in one transaction
		private String plan(String settings, String statement, @Nullable Object... arguments) {
			List<String> plan = jdbc().execute((ConnectionCallback<List<String>>) (connection) -> {
				connection.setAutoCommit(false);
				try (Statement set = connection.createStatement();
						PreparedStatement explain = connection.prepareStatement("EXPLAIN " + statement)) {
					set.execute(settings);
					new ArgumentPreparedStatementSetter(arguments).setValues(explain);
					List<String> lines = new ArrayList<>();
					try (ResultSet rows = explain.executeQuery()) {
						while (rows.next()) {
							lines.add(rows.getString(1));
						}
					}
					return lines;
				}
				finally {
					connection.rollback();
					connection.setAutoCommit(true);
				}
			});
			return String.join("\n", (plan != null) ? plan : List.of());
		}

		// The settings a start's transaction runs with, read by a trigger of the
		// test's or on a pooled connection
		private static final String SETTINGS = "current_setting('synchronous_commit') || ' '"
				+ " || current_setting('enable_seqscan') || ' ' || current_setting('enable_bitmapscan')";

		// The advisory lock is released by the commit: a start's commit must not wait for
		// the WAL flush, its count must read the index, and the settings must not outlive
		// the start on its connection
		@Test
		void aStartCommitsAsynchronouslyCountsByTheIndexAndLeavesItsPooledConnectionAsItWas() throws Exception {
			JdbcMcpSessionRegistry registry = registry(5);
			// A trigger of the test's records the setting that the start's insert runs
			// with, in its transaction
			recordOnInsert("start_setting", "settings TEXT", SETTINGS, "ROW");

			String id = start(registry);
			assertThat(storedIds()).containsExactly(IdDigests.of(id));
			assertThat(jdbc().queryForList("SELECT settings FROM start_setting", String.class))
				.containsExactly("off off off");

			// Every idle connection of the registry's pool, the start's among them, is
			// back to the server's setting
			HikariDataSource pool = pools().get(0);
			List<Connection> idle = new ArrayList<>();
			try {
				// At least one: Hikari may count none idle for a moment (the listener
				// holds
				// one connection, and a returned one may still be on its way back)
				int count = Math.max(1, pool.getHikariPoolMXBean().getIdleConnections());
				for (int i = 0; i < count; i++) {
					idle.add(pool.getConnection());
				}
				for (Connection connection : idle) {
					try (Statement statement = connection.createStatement();
							ResultSet setting = statement.executeQuery("SELECT " + SETTINGS)) {
						assertThat(setting.next()).isTrue();
						assertThat(setting.getString(1)).isEqualTo("on on on");
					}
				}
			}
			finally {
				for (Connection connection : idle) {
					connection.close();
				}
			}
		}

	}

	abstract static class UnderLoadRules {

		@AutoClose
		private final McpTestDatabase database;

		private final MutableClock clock = new MutableClock();

		private final List<HikariDataSource> pools = new ArrayList<>();

		private final List<JdbcMcpSessionRegistry> registries = new ArrayList<>();

		UnderLoadRules(McpTestDatabase database) {
			this.database = database;
		}

		/**
		 * A connection pool of its own to the shared database, as every instance has.
		 * @return a new pool
		 */
		HikariDataSource pool() {
			return this.database.pool(10);
		}

		MutableClock clock() {
			return this.clock;
		}

		// Whether the instances hear the deletion of a row (PostgreSQL): a copy is then
		// dropped when its end is heard, not by the next sweep
		boolean hearsEnds() {
			return false;
		}

		List<HikariDataSource> pools() {
			return this.pools;
		}

		@AfterEach
		void closeRegistries() {
			for (JdbcMcpSessionRegistry registry : this.registries) {
				registry.endAll();
			}
			for (HikariDataSource pool : this.pools) {
				pool.close();
			}
		}

		@Test
		void aRequestWritesTheLastUseOnlyWhenTheStoredOneIsOlderThanTheTouchInterval() {
			JdbcMcpSessionRegistry registry = registry(100);
			long started = this.clock.millis();
			String id = start(registry);

			this.clock.advance(Duration.ofSeconds(10));
			assertThat(registry.find(id, "alice")).isNotNull();
			assertThat(storedLastUse(id)).as("10 s after the start").isEqualTo(started);

			this.clock.advance(TOUCH_INTERVAL.minusSeconds(10));
			assertThat(registry.find(id, "alice")).isNotNull();
			assertThat(storedLastUse(id)).as("exactly one interval after the start").isEqualTo(started);

			this.clock.advance(Duration.ofMillis(1));
			assertThat(registry.find(id, "alice")).isNotNull();
			long written = this.clock.millis();
			assertThat(storedLastUse(id)).as("just over one interval after the start").isEqualTo(written);

			// Many requests within the next interval write nothing
			for (int i = 0; i < 29; i++) {
				this.clock.advance(Duration.ofSeconds(1));
				assertThat(registry.find(id, "alice")).isNotNull();
			}
			assertThat(storedLastUse(id)).isEqualTo(written);
		}

		@Test
		void aSessionLivesTheIdleTimeoutAfterItsLastUnwrittenUseAndExpiresAtMostOneIntervalLater() {
			JdbcMcpSessionRegistry registry = registry(100);
			String id = start(registry);
			// Used 20 s after the start: a use the row does not record
			this.clock.advance(Duration.ofSeconds(20));
			assertThat(registry.find(id, "alice")).isNotNull();

			// Unused for the idle timeout plus 10 s, 30 s older than the stored last use
			// plus the idle timeout
			this.clock.advance(IDLE_TIMEOUT.plusSeconds(10));
			assertThat(registry.size()).isOne();
			JdbcMcpSessionRegistry other = registry(100);
			assertThat(other.find(id, "alice")).as("found on another instance").isNotNull();

			// That request wrote its use; unused for one millisecond more than timeout
			// and interval: expired
			this.clock.advance(IDLE_TIMEOUT.plus(TOUCH_INTERVAL).plusMillis(1));
			assertThat(registry.size()).isZero();
			assertThat(registry.find(id, "alice")).isNull();
			assertThat(storedIds()).isEmpty();
			assertThat(other.find(id, "alice")).isNull();
		}

		@Test
		void theFirstStartOfEachIntervalDeletesTheExpiredRowsAndEndsLocalCopiesOfRowsDeletedElsewhere() {
			JdbcMcpSessionRegistry first = registry(100);
			JdbcMcpSessionRegistry second = registry(100);
			String expiring = start(first);
			String ended = start(first);
			assertThat(second.find(ended, "alice")).isNotNull();
			assertThat(second.get(ended)).as("the copy on the second instance").isNotNull();
			start(second);
			first.end(ended);
			if (hearsEnds()) {
				// PostgreSQL: the row's deletion is announced, and the copy dropped when
				// the second instance hears it
				await().atMost(Duration.ofSeconds(10)).until(() -> second.get(ended) == null);
			}
			else {
				assertThat(second.get(ended)).as("ended on the first instance, not yet seen by the second").isNotNull();
			}

			// Every start within the interval leaves an expired row alone: the sweep is
			// not part of a start
			this.clock.advance(TOUCH_INTERVAL.minusMillis(1));
			String fresh = start(second);
			insertRow("left-by-a-stopped-instance",
					this.clock.millis() - IDLE_TIMEOUT.plus(TOUCH_INTERVAL).toMillis() - 1);
			start(second);
			assertThat(storedIds()).contains("left-by-a-stopped-instance");
			if (!hearsEnds()) {
				assertThat(second.get(ended)).isNotNull();
			}

			// The first start after the interval deletes the expired rows and drops the
			// copy of the ended session
			this.clock.advance(Duration.ofMillis(1));
			start(second);
			assertThat(storedIds()).doesNotContain("left-by-a-stopped-instance").contains(IdDigests.of(fresh));
			assertThat(second.get(ended)).isNull();

			// Idle past timeout and interval: the next start of any instance deletes them
			this.clock.advance(IDLE_TIMEOUT.plus(TOUCH_INTERVAL).plusMillis(1));
			String last = start(first);
			assertThat(storedIds()).containsExactly(IdDigests.of(last));
			assertThat(first.get(expiring)).isNull();
		}

		@Test
		void twoRegistriesWithPoolsOfTenStartExactlyTheCapAtOnceWhileExpiredRowsHoldNoSlot() throws Exception {
			int cap = 7;
			JdbcMcpSessionRegistry first = registry(cap);
			JdbcMcpSessionRegistry second = registry(cap);
			// Both have swept: the rows below stay for the whole race
			first.end(start(first));
			second.end(start(second));
			for (int i = 0; i < 3; i++) {
				insertRow("expired-" + i, this.clock.millis() - IDLE_TIMEOUT.plus(TOUCH_INTERVAL).toMillis() - 1);
			}
			for (int round = 1; round <= 5; round++) {
				List<String> started = race(List.of(first, second), 20);
				assertThat(started).as("sessions started in round %d", round).hasSize(cap);
				assertThat(storedIds()).as("rows after round %d", round)
					.hasSize(cap + 3)
					.containsAll(started.stream().map(IdDigests::of).toList());
				assertThat(first.size()).isEqualTo(cap);
				for (String id : started) {
					second.end(id);
				}
			}
		}

		JdbcMcpSessionRegistry registry(int maxSessions) {
			HikariDataSource pool = pool();
			this.pools.add(pool);
			JdbcMcpSessionRegistry registry = new JdbcMcpSessionRegistry(pool, JSON, IDLE_TIMEOUT, maxSessions,
					this.clock, () -> SESSIONS);
			this.registries.add(registry);
			return registry;
		}

		static @Nullable String startOrNull(JdbcMcpSessionRegistry registry) {
			McpStreamableServerSession.McpStreamableServerSessionInit init = registry.start(SESSIONS, INITIALIZE,
					"alice");
			return (init != null) ? init.session().getId() : null;
		}

		static String start(JdbcMcpSessionRegistry registry) {
			McpStreamableServerSession.McpStreamableServerSessionInit init = registry.start(SESSIONS, INITIALIZE,
					"alice");
			assertThat(init).isNotNull();
			return init.session().getId();
		}

		// Every registry starts this many sessions, all released at the same moment; the
		// ids of those started
		private static List<String> race(List<JdbcMcpSessionRegistry> registries, int startsPerRegistry)
				throws Exception {
			ExecutorService threads = Executors.newFixedThreadPool(registries.size() * startsPerRegistry);
			try {
				CountDownLatch go = new CountDownLatch(1);
				List<Future<@Nullable String>> starts = new ArrayList<>();
				for (JdbcMcpSessionRegistry registry : registries) {
					for (int i = 0; i < startsPerRegistry; i++) {
						Callable<@Nullable String> start = () -> {
							go.await();
							return startOrNull(registry);
						};
						starts.add(threads.submit(start));
					}
				}
				go.countDown();
				List<String> started = new ArrayList<>();
				for (Future<@Nullable String> start : starts) {
					String id = start.get(60, TimeUnit.SECONDS);
					if (id != null) {
						started.add(id);
					}
				}
				return started;
			}
			finally {
				threads.shutdownNow();
			}
		}

		JdbcTemplate jdbc() {
			return new JdbcTemplate(this.pools.get(0));
		}

		private long storedLastUse(String id) {
			Long lastUsed = jdbc().queryForObject(
					"SELECT last_used FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE id = ?", Long.class,
					IdDigests.of(id));
			assertThat(lastUsed).isNotNull();
			return lastUsed;
		}

		List<String> storedIds() {
			return jdbc().queryForList("SELECT id FROM " + JdbcMcpSessionRegistry.TABLE, String.class);
		}

		// A row as another instance wrote it, under a made-up key
		private void insertRow(String id, long lastUsed) {
			jdbc().update("INSERT INTO " + JdbcMcpSessionRegistry.TABLE
					+ " (id, owner_name, protocol_version, initialize_request, created_at, last_used)"
					+ " VALUES (?, NULL, '2025-06-18', '{}', ?, ?)", id, lastUsed, lastUsed);
		}

	}

}
