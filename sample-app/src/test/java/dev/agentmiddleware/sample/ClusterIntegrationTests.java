package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample on one PostgreSQL schema, started with Spring Boot's own
 * {@code spring.datasource.*} properties only, and a client that alternates between them
 * with one MCP session: initialized on A, the same {@code Mcp-Session-Id} sent to B and A
 * in turn, as a round-robin load balancer would. Plain HTTP requests, since the SDK's
 * client keeps one base URL.
 * <p>
 * Every test has a session of its own, so the per-thread tool-call budget the instances
 * share ({@code agent.middleware.loop-guard.max-tool-calls-per-thread},
 * {@value #THREAD_BUDGET}) holds for each test apart; no other test comes near it.
 */
@RequiresService(TestService.POSTGRES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int THREAD_BUDGET = 50;

	// Static: one workspace for the class, shared by both instances (an instance field
	// would be a new one per test).
	@TempDir
	static Path workspace;

	private PostgresTestDatabase database;

	private ConfigurableApplicationContext instanceA;

	private ConfigurableApplicationContext instanceB;

	private final HttpClient http = HttpClient.newHttpClient();

	private McpHttpSession session;

	@BeforeAll
	void startTwoInstances() {
		this.database = PostgresTestDatabase.createSchema();
		this.instanceA = start("a");
		this.instanceB = start("b");
	}

	@AfterAll
	void stopInstances() {
		try {
			if (this.instanceA != null) {
				this.instanceA.close();
			}
			if (this.instanceB != null) {
				this.instanceB.close();
			}
		}
		finally {
			this.database.close();
		}
	}

	@BeforeEach
	void initializeOneSessionOnA() throws Exception {
		this.session = McpHttpSession.initialize(this.http, port(this.instanceA));
	}

	private ConfigurableApplicationContext start(String name) {
		// Command-line arguments, so that they win over application.yml (server.port:
		// 8080). An immediate shutdown,
		// so that a stopped instance does not wait for the calls it holds.
		return new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--server.shutdown=immediate", "--spring.jmx.enabled=false", "--sample.workspace.root=" + workspace,
				"--sample.approver.username=alice", "--sample.approver.password=alice-secret",
				"--spring.datasource.url=" + this.database.jdbcUrl(),
				"--spring.datasource.username=" + this.database.username(),
				"--spring.datasource.password=" + this.database.password(),
				// A refill that never comes during the test: exactly 5 permits for the
				// session.
				"--agent.middleware.rate-limit.tools.get-weather.limit-for-period=5",
				"--agent.middleware.rate-limit.tools.get-weather.limit-refresh-period=1h",
				"--agent.middleware.loop-guard.max-tool-calls-per-thread=" + THREAD_BUDGET,
				"--agent.middleware.approval.store.instance-id=" + name);
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@Test
	void oneSessionListsAndCallsToolsOnBothInstances() throws Exception {
		Files.writeString(workspace.resolve("both.txt"), "seen from both");
		for (ConfigurableApplicationContext instance : List.of(this.instanceB, this.instanceA)) {
			JsonNode tools = send(instance,
					"{\"jsonrpc\":\"2.0\",\"id\":" + this.session.nextRequestId() + ",\"method\":\"tools/list\"}");
			List<String> names = new ArrayList<>();
			tools.get("result").get("tools").forEach((tool) -> names.add(tool.get("name").asString()));
			assertThat(names).contains("read_file", "write_file", "delete_file", "get_weather", "write_todos");
			assertThat(succeed(instance, "read_file", Map.of("path", "both.txt"))).isEqualTo("seen from both");
		}
	}

	@Test
	void aRateLimitOfFiveAllowsFiveCallsAcrossBothInstances() throws Exception {
		List<ConfigurableApplicationContext> alternating = List.of(this.instanceA, this.instanceB);
		// Distinct cities: a cache hit would not use a permit.
		for (int call = 1; call <= 5; call++) {
			succeed(alternating.get(call % 2), "get_weather", Map.of("city", "Cluster Town " + call));
		}
		String rejected = fail(alternating.get(0), "get_weather", Map.of("city", "Cluster Town 6"));
		assertThat(rejected).startsWith("Tool 'get_weather' is rate limited (5 calls per 1h per session)")
			.contains("retry in about");
		assertThat(fail(alternating.get(1), "get_weather", Map.of("city", "Cluster Town 7")))
			.startsWith("Tool 'get_weather' is rate limited");
	}

	@Test
	void aPerThreadToolCallBudgetCountsTheCallsOfOneSessionOnBothInstances() throws Exception {
		List<ConfigurableApplicationContext> alternating = List.of(this.instanceA, this.instanceB);
		for (int call = 0; call < THREAD_BUDGET; call++) {
			succeed(alternating.get(call % 2), "read_todos", Map.of());
		}
		String expected = "Tool 'read_todos' is rate limited (this session's budget of " + THREAD_BUDGET
				+ " tool calls is used up: loop-guard max-tool-calls-per-thread)";
		for (ConfigurableApplicationContext instance : alternating) {
			double before = rateLimitedReadTodos(instance);
			assertThat(fail(instance, "read_todos", Map.of())).startsWith(expected);
			assertThat(fail(instance, "write_todos", Map.of("todos", List.of())))
				.contains("budget of " + THREAD_BUDGET);
			// Observed and counted like every refusal: one call more with the outcome
			// rate_limited
			assertThat(rateLimitedReadTodos(instance)).isEqualTo(before + 1);
		}
		assertThat(succeedInNewSession(this.instanceB, "read_todos")).as("another session has a budget of its own")
			.isEqualTo("{\"todos\":[]}");
	}

	private static double rateLimitedReadTodos(ConfigurableApplicationContext instance) {
		Timer timer = instance.getBean(MeterRegistry.class)
			.find("agent.tool.call")
			.tags("agent.tool.name", "read_todos", "agent.tool.outcome", "rate_limited")
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

	private String succeedInNewSession(ConfigurableApplicationContext instance, String tool) throws Exception {
		McpHttpSession ownSession = this.session;
		this.session = McpHttpSession.initialize(this.http, port(instance));
		try {
			return succeed(instance, tool, Map.of());
		}
		finally {
			this.session = ownSession;
		}
	}

	@Test
	void aCallWaitingOnAIsReleasedByADecisionPostedToB() throws Exception {
		Path file = workspace.resolve("release-me.txt");
		Files.writeString(file, "delete me");
		CompletableFuture<JsonNode> call = callAsync(this.instanceA, "delete_file", Map.of("path", "release-me.txt"));
		ApprovalApi approverOnB = new ApprovalApi(port(this.instanceB), "alice", "alice-secret");
		JsonNode request = approverOnB.awaitPendingFor("delete_file", "release-me.txt");
		assertThat(call).isNotDone();
		assertThat(approverOnB.approve(request.get("id").asString()).status()).isEqualTo(200);
		assertThat(text(call.get(20, TimeUnit.SECONDS))).isEqualTo("Deleted release-me.txt");
		assertThat(file).doesNotExist();
	}

	@Test
	void aTodoListWrittenThroughAIsReadThroughB() throws Exception {
		List<Map<String, Object>> todos = List.of(Map.of("id", "1", "text", "Plan on A", "status", "in_progress"),
				Map.of("id", "2", "text", "Read on B", "status", "pending"));
		succeed(this.instanceA, "write_todos", Map.of("todos", todos));
		assertThat(JSON.readValue(succeed(this.instanceB, "read_todos", Map.of()), Map.class).get("todos"))
			.isEqualTo(todos);
		succeed(this.instanceB, "update_todo", Map.of("id", "2", "status", "done"));
		assertThat(succeed(this.instanceA, "read_todos", Map.of())).contains("\"done\"");
	}

	@Test
	void aWriteThroughBInvalidatesTheCachedReadOnA() throws Exception {
		Path file = workspace.resolve("cached.txt");
		Files.writeString(file, "first");
		assertThat(succeed(this.instanceA, "read_file", Map.of("path", "cached.txt"))).isEqualTo("first");
		// Changed behind the tools' back: A still answers from its cache.
		Files.writeString(file, "changed on disk");
		assertThat(succeed(this.instanceA, "read_file", Map.of("path", "cached.txt"))).isEqualTo("first");

		succeed(this.instanceB, "write_file", Map.of("path", "cached.txt", "content", "written through B"));
		// Every poll is a tool call of the session: 250 ms keeps them well inside the
		// per-thread budget.
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(succeed(this.instanceA, "read_file", Map.of("path", "cached.txt")))
				.isEqualTo("written through B"));
	}

	/**
	 * A third instance, stopped while a call on it waits for approval: the stopping
	 * instance closes the request as abandoned, and the decision B's approval API is then
	 * asked for is refused. (An instance that dies without stopping leaves the request to
	 * the store's heartbeat sweep, {@code approval.store.abandon-after}, which this test
	 * does not wait for.)
	 */
	@Test
	void anInstanceStoppedMidCallLeavesItsPendingApprovalAbandonedNeverApprovable() throws Exception {
		ConfigurableApplicationContext stopped = start("stopped");
		Files.writeString(workspace.resolve("orphan.txt"), "keep me");
		String sessionOnStopped = RawMcp.initialize(this.http, port(stopped));
		CompletableFuture<HttpResponse<String>> call = this.http.sendAsync(
				RawMcp.post(port(stopped), sessionOnStopped,
						RawMcp.toolsCall(this.session.nextRequestId(), "delete_file", "{\"path\":\"orphan.txt\"}")),
				HttpResponse.BodyHandlers.ofString());
		ApprovalApi approverOnB = new ApprovalApi(port(this.instanceB), "alice", "alice-secret");
		String id = approverOnB.awaitPendingFor("delete_file", "orphan.txt").get("id").asString();

		stopped.close();

		// Closed by the stopping instance itself, well before the store's heartbeat sweep
		// (abandon-after, 30s).
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> approverOnB.pending()
				.stream()
				.noneMatch((request) -> request.get("id").asString().equals(id)));
		ApprovalApi.Response decision = approverOnB.approve(id);
		assertThat(decision.status()).as(decision.body()).isEqualTo(409);
		// Written by the waiting call once it wakes, a moment after its request was
		// closed
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(approverOnB.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(id);
				assertThat(record.get("outcome").asString()).isEqualTo("abandoned");
			}));
		assertThat(workspace.resolve("orphan.txt")).exists();
		call.cancel(true);
	}

	private CompletableFuture<JsonNode> callAsync(ConfigurableApplicationContext instance, String tool,
			Map<String, Object> arguments) {
		return this.session.callAsync(port(instance), tool, arguments);
	}

	private String succeed(ConfigurableApplicationContext instance, String tool, Map<String, Object> arguments)
			throws Exception {
		return this.session.succeed(port(instance), tool, arguments);
	}

	private String fail(ConfigurableApplicationContext instance, String tool, Map<String, Object> arguments)
			throws Exception {
		return this.session.fail(port(instance), tool, arguments);
	}

	private JsonNode send(ConfigurableApplicationContext instance, String body) throws Exception {
		return this.session.send(port(instance), body);
	}

	private static String text(JsonNode response) {
		return McpHttpSession.text(response);
	}

}
