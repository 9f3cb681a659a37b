package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract of an {@link McpTaskStore}, in memory and on a database (H2, and
 * PostgreSQL when configured), where two stores on one database are two instances: a task
 * is found as soon as it is created, answers reach only the questions still pending, an
 * ended task stays as it ended, a task expires its TTL after its last change; and a task
 * running on one instance is answered and cancelled through another.
 */
class McpTaskStoreTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final Duration TTL = Duration.ofMinutes(10);

	@Nested
	class InMemory extends StoreRules {

		private @Nullable InMemoryMcpTaskStore store;

		@Override
		McpTaskStore instance(MutableClock clock) {
			if (this.store == null) {
				this.store = new InMemoryMcpTaskStore(clock);
			}
			return this.store;
		}

	}

	@Nested
	class OnH2 extends JdbcRules {

		OnH2() {
			super(McpTestDatabase.h2("mcp-tasks"));
		}

	}

	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgres extends JdbcRules {

		OnPostgres() {
			super(McpTestDatabase.postgres());
		}

	}

	abstract static class JdbcRules extends StoreRules {

		@AutoClose
		private final McpTestDatabase database;

		private final List<HikariDataSource> pools = new CopyOnWriteArrayList<>();

		JdbcRules(McpTestDatabase database) {
			this.database = database;
		}

		@Override
		McpTaskStore instance(MutableClock clock) {
			// A connection pool of its own to the shared database, as every instance has
			HikariDataSource pool = this.database.pool(2);
			this.pools.add(pool);
			return new JdbcMcpTaskStore(pool, JSON, clock);
		}

		@AfterEach
		void closePools() {
			this.pools.forEach(HikariDataSource::close);
		}

	}

	abstract static class StoreRules {

		final MutableClock clock = new MutableClock();

		/**
		 * The store of one instance: on a database a new one each time, in memory the
		 * same.
		 */
		abstract McpTaskStore instance(MutableClock clock);

		@Test
		void createdTaskIsFoundAtOnceOnEveryInstance() {
			McpTask task = working("created");
			instance(this.clock).create(task);
			assertThat(instance(this.clock).find("created")).isEqualTo(task);
			assertThat(instance(this.clock).find("unknown")).isNull();
		}

		@Test
		void answersReachOnlyPendingQuestionsAndAPartialAnswerKeepsTheTaskWaiting() {
			McpTask task = working("asking");
			McpTaskStore runner = instance(this.clock);
			runner.create(task);
			runner.update("asking", (each) -> each.asking("first", question("First?"), this.clock.millis()));
			runner.update("asking", (each) -> each.asking("second", question("Second?"), this.clock.millis()));
			McpTaskStore other = instance(this.clock);
			other.update("asking",
					(each) -> each.answered(
							Map.of("first", Map.of("action", "accept"), "unknown", Map.of("action", "accept")),
							this.clock.millis()));
			McpTask partial = runner.find("asking");
			assertThat(partial.status()).isEqualTo(McpTask.Status.INPUT_REQUIRED);
			assertThat(partial.inputRequests()).containsOnlyKeys("second");
			assertThat(partial.inputResponses()).containsOnlyKeys("first");
			assertThat(partial.detailed()).containsKey("inputRequests");
			other.update("asking",
					(each) -> each.answered(Map.of("second", Map.of("action", "decline")), this.clock.millis()));
			McpTask answered = runner.update("asking", (each) -> each.taken("first"));
			assertThat(answered.status()).isEqualTo(McpTask.Status.WORKING);
			assertThat(answered.inputRequests()).isEmpty();
			assertThat(answered.inputResponses()).containsOnlyKeys("second");
			assertThat(answered.detailed()).doesNotContainKey("inputRequests");
		}

		@Test
		void endedTaskStaysAsItEnded() {
			McpTaskStore store = instance(this.clock);
			store.create(working("ended"));
			instance(this.clock).update("ended", (each) -> each.cancelled(this.clock.millis()));
			McpTask after = store.update("ended", (each) -> each.completed(Map.of("content", List.of()), 0));
			assertThat(after.status()).isEqualTo(McpTask.Status.CANCELLED);
			assertThat(after.detailed()).doesNotContainKeys("result", "error");
		}

		@Test
		void taskExpiresItsTtlAfterItsLastChange() {
			McpTaskStore store = instance(this.clock);
			store.create(working("expiring"));
			this.clock.advance(TTL.minusSeconds(1));
			store.update("expiring", (each) -> each.completed(Map.of("content", List.of()), this.clock.millis()));
			this.clock.advance(TTL.minusSeconds(1));
			assertThat(instance(this.clock).find("expiring")).isNotNull();
			this.clock.advance(Duration.ofSeconds(2));
			assertThat(instance(this.clock).find("expiring")).isNull();
			assertThat(store.update("expiring", (each) -> each.cancelled(this.clock.millis()))).isNull();
		}

		@Test
		void taskRunningOnOneInstanceIsAnsweredAndCancelledThroughAnother() {
			StatelessMcpTasks running = tasks(instance(this.clock));
			StatelessMcpTasks other = tasks(instance(this.clock));
			// Asks its client, then holds until cancelled
			SyncToolSpecification tool = SyncToolSpecification.builder()
				.tool(McpSchema.Tool.builder("ask_then_hold").inputSchema(Map.of("type", "object")).build())
				.callHandler((exchange, request) -> {
					McpSchema.ElicitResult answer = exchange.createElicitation(
							McpSchema.ElicitFormRequest.builder("Go on?", Map.of("type", "object")).build());
					try {
						McpRequestContext.of(exchange.transportContext()).cancellation().await(Duration.ofSeconds(30));
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					return McpSchema.CallToolResult.builder().addTextContent(answer.action().name()).build();
				})
				.build();
			Map<String, Object> params = params();
			String taskId = (String) running
				.start(tool, new McpSchema.CallToolRequest("ask_then_hold", Map.of()), params, null, "http://localhost")
				.get("taskId");
			Map<String, Object> get = withTask(params, taskId);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "input_required".equals(other.answer("tasks/get", get, null).get("status")));
			Map<?, ?> requests = (Map<?, ?>) other.answer("tasks/get", get, null).get("inputRequests");
			String key = (String) requests.keySet().iterator().next();
			Map<String, Object> update = withTask(params, taskId);
			update.put("inputResponses", Map.of(key, Map.of("action", "accept", "content", Map.of())));
			assertThat(other.answer("tasks/update", update, null)).containsExactly(Map.entry("resultType", "complete"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "working".equals(other.answer("tasks/get", get, null).get("status")));
			assertThat(other.answer("tasks/cancel", get, null)).containsExactly(Map.entry("resultType", "complete"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "cancelled".equals(running.answer("tasks/get", get, null).get("status")));
		}

		private StatelessMcpTasks tasks(McpTaskStore store) {
			return new StatelessMcpTasks(JSON, store, (tool) -> TaskSupport.OPTIONAL, TTL, Duration.ofSeconds(1),
					Duration.ofMillis(20), this.clock);
		}

		private McpTask working(String id) {
			return McpTask.working(id, "alice", this.clock.millis(), TTL.toMillis(), 1000);
		}

		private static Map<String, Object> question(String message) {
			return Map.of("method", "elicitation/create", "params", Map.of("message", message));
		}

		private static Map<String, Object> params() {
			Map<String, Object> params = new LinkedHashMap<>();
			params.put("_meta", Map.of("io.modelcontextprotocol/clientCapabilities",
					Map.of("elicitation", Map.of(), "extensions", Map.of(StatelessMcpTasks.EXTENSION, Map.of()))));
			return params;
		}

		private static Map<String, Object> withTask(Map<String, Object> params, String taskId) {
			Map<String, Object> with = new LinkedHashMap<>(params);
			with.put("taskId", taskId);
			return with;
		}

	}

}
