package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session cap of {@link JdbcMcpSessionRegistry} holds for the cluster: several
 * registries, each on its own connection pool to one database as the instances behind a
 * load balancer are, that all start sessions at the same moment start exactly
 * {@code max-sessions} of them and refuse the rest, round after round; a session idle
 * longer than the timeout gives its slot to the next start (its row is not counted, and
 * that start deletes it), while a session used on another instance keeps its slot. On
 * PostgreSQL (an advisory lock serializes the starts) and on H2 (a row lock on
 * {@code agent_mcp_session_lock}).
 */
class McpSessionCapAcrossInstancesTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

	private static final int INSTANCES = 4;

	private static final int STARTS_PER_INSTANCE = 6;

	private static final McpSchema.InitializeRequest INITIALIZE = new McpSchema.InitializeRequest("2025-06-18",
			McpSchema.ClientCapabilities.builder().build(), new McpSchema.Implementation("racer", "1.0"));

	private static final McpStreamableServerSession.Factory SESSIONS = McpTestSessions.factory();

	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgres extends CapRules {

		OnPostgres() {
			super(McpTestDatabase.postgres());
		}

	}

	@Nested
	class OnH2 extends CapRules {

		OnH2() {
			super(McpTestDatabase.h2("mcp-cap"));
		}

	}

	abstract static class CapRules {

		@AutoClose
		private final McpTestDatabase database;

		CapRules(McpTestDatabase database) {
			this.database = database;
		}

		/**
		 * A connection pool of its own to the shared database, as every instance has.
		 * @return a new pool
		 */
		HikariDataSource pool() {
			return this.database.pool(2);
		}

		@Test
		void manySimultaneousStartsOnSeveralInstancesStartExactlyTheCapRoundAfterRound() throws Exception {
			int cap = 5;
			try (Cluster cluster = new Cluster(this::pool, cap)) {
				for (int round = 1; round <= 10; round++) {
					Race race = cluster.race();
					assertThat(race.started()).as("sessions started in round %d", round).hasSize(cap);
					assertThat(race.refused()).as("starts refused in round %d", round)
						.isEqualTo(INSTANCES * STARTS_PER_INSTANCE - cap);
					assertThat(cluster.storedIds()).as("rows after round %d", round)
						.containsExactlyInAnyOrderElementsOf(digests(race.started()));
					for (JdbcMcpSessionRegistry instance : cluster.instances()) {
						assertThat(instance.size()).isEqualTo(cap);
					}
					// Each ended by one DELETE on whichever instance: the slots are free
					// for the next round
					for (String id : race.started()) {
						cluster.instances().get(round % INSTANCES).end(id);
					}
					assertThat(cluster.storedIds()).isEmpty();
				}
			}
		}

		@Test
		void aSessionIdleLongerThanTheTimeoutFreesItsSlotWhileOneUsedOnAnotherInstanceKeepsIt() throws Exception {
			try (Cluster cluster = new Cluster(this::pool, 2)) {
				JdbcMcpSessionRegistry first = cluster.instances().get(0);
				JdbcMcpSessionRegistry second = cluster.instances().get(1);
				String used = startedId(first);
				String idle = startedId(first);
				assertThat(second.start(SESSIONS, INITIALIZE, "alice")).as("a start over the cap").isNull();

				cluster.clock().advance(Duration.ofMinutes(20));
				assertThat(second.find(used, "alice")).isNotNull();
				// Now idle for 40 minutes, the other session for 20
				cluster.clock().advance(Duration.ofMinutes(20));

				Race race = cluster.race();
				assertThat(race.started()).hasSize(1);
				assertThat(cluster.storedIds())
					.containsExactlyInAnyOrderElementsOf(digests(List.of(used, race.started().get(0))));
				assertThat(first.find(idle, "alice")).isNull();
				assertThat(second.find(used, "alice")).isNotNull();
			}
		}

		private static String startedId(JdbcMcpSessionRegistry instance) {
			McpStreamableServerSession.McpStreamableServerSessionInit init = instance.start(SESSIONS, INITIALIZE,
					"alice");
			assertThat(init).isNotNull();
			return init.session().getId();
		}

	}

	/**
	 * {@value #INSTANCES} registries on one database, each with its own pool and all on
	 * one clock.
	 */
	private static final class Cluster implements AutoCloseable {

		private final MutableClock clock = new MutableClock();

		private final List<HikariDataSource> pools = new ArrayList<>();

		private final List<JdbcMcpSessionRegistry> instances = new ArrayList<>();

		Cluster(Supplier<HikariDataSource> pool, int maxSessions) {
			for (int i = 0; i < INSTANCES; i++) {
				HikariDataSource dataSource = pool.get();
				this.pools.add(dataSource);
				this.instances.add(new JdbcMcpSessionRegistry(dataSource, JSON, IDLE_TIMEOUT, maxSessions, this.clock,
						() -> SESSIONS));
			}
		}

		MutableClock clock() {
			return this.clock;
		}

		List<JdbcMcpSessionRegistry> instances() {
			return this.instances;
		}

		// Every instance starts STARTS_PER_INSTANCE sessions, all released at the same
		// moment
		Race race() throws Exception {
			ExecutorService threads = Executors.newFixedThreadPool(INSTANCES * STARTS_PER_INSTANCE);
			try {
				CountDownLatch go = new CountDownLatch(1);
				List<Future<@Nullable String>> starts = new ArrayList<>();
				for (JdbcMcpSessionRegistry instance : this.instances) {
					for (int i = 0; i < STARTS_PER_INSTANCE; i++) {
						Callable<@Nullable String> start = () -> {
							go.await();
							McpStreamableServerSession.McpStreamableServerSessionInit init = instance.start(SESSIONS,
									INITIALIZE, "alice");
							return (init != null) ? init.session().getId() : null;
						};
						starts.add(threads.submit(start));
					}
				}
				go.countDown();
				List<String> started = new ArrayList<>();
				int refused = 0;
				for (Future<@Nullable String> start : starts) {
					String result = start.get(60, TimeUnit.SECONDS);
					if (result != null) {
						started.add(result);
					}
					else {
						refused++;
					}
				}
				return new Race(started, refused);
			}
			finally {
				threads.shutdownNow();
			}
		}

		// A row keeps the digest of its session's id, never the id
		List<String> storedIds() {
			return new JdbcTemplate(this.pools.get(0)).queryForList("SELECT id FROM " + JdbcMcpSessionRegistry.TABLE,
					String.class);
		}

		@Override
		public void close() {
			for (JdbcMcpSessionRegistry instance : this.instances) {
				instance.endAll();
			}
			for (HikariDataSource pool : this.pools) {
				pool.close();
			}
		}

	}

	// What the table keeps of these session ids
	private static List<String> digests(List<String> ids) {
		return ids.stream().map(IdDigests::of).toList();
	}

	// The ids of the sessions started, and how many starts were refused
	private record Race(List<String> started, int refused) {
	}

}
