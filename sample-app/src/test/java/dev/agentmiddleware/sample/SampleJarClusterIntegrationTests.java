package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's "Running several instances", followed as written on the shipped jar: two
 * {@code java -jar} processes given Spring Boot's {@code spring.datasource.*} properties
 * of one PostgreSQL database and nothing else that selects a store, and one MCP session
 * alternating between them as a round-robin load balancer would. The session, a rate
 * limit, a todo list, an approval and a cache invalidation hold across the two, and a
 * restarted instance continues the session with its todo list.
 * <p>
 * Besides the database, the processes get a port, a shared workspace, and a rate-limit
 * refill period of an hour (the sample's minute could refill mid-test on a slow machine).
 */
@RequiresService(TestService.POSTGRES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SampleJarClusterIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	// Static: one directory for the class (PER_CLASS life cycle, set before @BeforeAll).
	@TempDir
	static Path directory;

	private PostgresTestDatabase database;

	private Path workspace;

	private SampleJar a;

	private SampleJar b;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	void startTwoJars() throws Exception {
		this.database = PostgresTestDatabase.createSchema();
		this.workspace = Files.createDirectories(directory.resolve("workspace"));
		this.a = start("a");
		this.b = start("b");
	}

	@AfterAll
	void stopJars() {
		try {
			if (this.a != null) {
				this.a.close();
			}
			if (this.b != null) {
				this.b.close();
			}
		}
		finally {
			this.database.close();
		}
	}

	private SampleJar start(String name) throws Exception {
		return SampleJar.start(directory.resolve(name), "--spring.datasource.url=" + this.database.jdbcUrl(),
				"--spring.datasource.username=" + this.database.username(),
				"--spring.datasource.password=" + this.database.password(),
				"--agent.middleware.mcp.request-state.secret=dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=",
				"--sample.workspace.root=" + this.workspace,
				"--agent.middleware.rate-limit.tools.get-weather.limit-refresh-period=1h");
	}

	@Test
	void everyStoreSaysAtStartupThatItLivesInPostgresql() {
		for (SampleJar instance : List.of(this.a, this.b)) {
			assertThat(instance.log())
				.contains("; approval store: jdbc (PostgreSQL, HikariDataSource); thread store: jdbc (PostgreSQL, "
						+ "HikariDataSource); audit store: jdbc (PostgreSQL, HikariDataSource)")
				.contains("MCP sessions are kept in the database (table agent_mcp_session)")
				.contains("Rate limits are shared in PostgreSQL (Bucket4j, table agent_rate_limit_bucket)")
				.contains("Cache invalidations travel to every instance through");
		}
	}

	@Test
	void oneSessionAlternatingBetweenTheJarsSharesEverythingTheReadmeLists() throws Exception {
		McpHttpSession session = McpHttpSession.initialize(this.http, this.a.port());
		List<Integer> alternating = List.of(this.a.port(), this.b.port());

		// The session works on both; a rate limit of 5 allows 5 calls in all (distinct
		// cities: no cache hit).
		for (int call = 1; call <= 5; call++) {
			session.succeed(alternating.get(call % 2), "get_weather", Map.of("city", "Jar Town " + call));
		}
		assertThat(session.fail(this.a.port(), "get_weather", Map.of("city", "Jar Town 6")))
			.startsWith("Tool 'get_weather' is rate limited (5 calls per 1h per session)");
		assertThat(session.fail(this.b.port(), "get_weather", Map.of("city", "Jar Town 7")))
			.startsWith("Tool 'get_weather' is rate limited");

		// A todo list written through A is read and changed through B.
		List<Map<String, Object>> todos = List.of(Map.of("id", "1", "text", "Written on A", "status", "pending"));
		session.succeed(this.a.port(), "write_todos", Map.of("todos", todos));
		assertThat(JSON.readTree(session.succeed(this.b.port(), "read_todos", Map.of()))
			.get("todos")
			.get(0)
			.get("text")
			.asString()).isEqualTo("Written on A");

		// A call waiting for approval on A is released by a decision posted to B.
		Files.writeString(this.workspace.resolve("approve-me.txt"), "delete me");
		CompletableFuture<JsonNode> deletion = session.callAsync(this.a.port(), "delete_file",
				Map.of("path", "approve-me.txt"));
		ApprovalApi approverOnB = new ApprovalApi(this.b.port(), "approver", "approve-me");
		String id = approverOnB.awaitPendingFor("delete_file", "approve-me.txt").get("id").asString();
		assertThat(approverOnB.approve(id).status()).isEqualTo(200);
		assertThat(McpHttpSession.text(deletion.get(30, TimeUnit.SECONDS))).isEqualTo("Deleted approve-me.txt");

		// A write through B invalidates A's cached read.
		Files.writeString(this.workspace.resolve("cached.txt"), "first");
		assertThat(session.succeed(this.a.port(), "read_file", Map.of("path", "cached.txt"))).isEqualTo("first");
		Files.writeString(this.workspace.resolve("cached.txt"), "changed on disk");
		assertThat(session.succeed(this.a.port(), "read_file", Map.of("path", "cached.txt"))).isEqualTo("first");
		session.succeed(this.b.port(), "write_file", Map.of("path", "cached.txt", "content", "written through B"));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(session.succeed(this.a.port(), "read_file", Map.of("path", "cached.txt")))
				.isEqualTo("written through B"));
	}

	@Test
	void aRestartedJarContinuesTheSessionWithItsTodoList() throws Exception {
		McpHttpSession session = McpHttpSession.initialize(this.http, this.b.port());
		List<Map<String, Object>> todos = List.of(Map.of("id", "1", "text", "Survive a restart", "status", "done"));
		session.succeed(this.b.port(), "write_todos", Map.of("todos", todos));

		this.b.stop();
		this.b = start("b");

		assertThat(JSON.readTree(session.succeed(this.b.port(), "read_todos", Map.of()))
			.get("todos")
			.get(0)
			.get("text")
			.asString()).isEqualTo("Survive a restart");
	}

}
