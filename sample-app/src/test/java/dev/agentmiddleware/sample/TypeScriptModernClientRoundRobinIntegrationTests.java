package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The official TypeScript SDK 2.x client (MCP {@code 2026-07-28},
 * {@code src/test/node/mcp-client-v2/modern-flows.mjs}, Node.js 22) against two sample
 * instances on one PostgreSQL schema (approvals, requestState ledger and tasks in the
 * database, the same requestState key), with strict round-robin: the client's fetch sends
 * every request to the other instance than the one before, and each test checks that it
 * did and that both served. A call; an approval decided by the client's user through
 * {@code input_required}; an approval decided through the REST API of the other instance
 * while the client retries; a tampered {@code requestState} refused; a task polled to its
 * result; a task cancelled, its approval withdrawn. No session and no sticky routing.
 */
@RequiresService({ TestService.NODE, TestService.NODE22, TestService.POSTGRES })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TypeScriptModernClientRoundRobinIntegrationTests {

	private static final String SECRET = "cm91bmQtcm9iaW4tdHlwZXNjcmlwdC1rZXktMzItYnl0ZXMh";

	@TempDir
	static Path workspace;

	private @Nullable PostgresTestDatabase database;

	private @Nullable DataSource dataSource;

	private @Nullable ConfigurableApplicationContext instanceA;

	private @Nullable ConfigurableApplicationContext instanceB;

	@BeforeAll
	void startInstances() {
		this.database = PostgresTestDatabase.createSchema();
		this.dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
				this.database.username(), this.database.password());
		this.instanceA = start("a");
		this.instanceB = start("b");
	}

	@AfterAll
	void stopInstances() {
		if (this.instanceA != null) {
			this.instanceA.close();
		}
		if (this.instanceB != null) {
			this.instanceB.close();
		}
		if (this.database != null) {
			this.database.close();
		}
	}

	private ConfigurableApplicationContext start(String name) {
		SharedDatabase.dataSource = this.dataSource;
		return new SpringApplicationBuilder(SampleApplication.class, SharedDatabase.class).run("--server.port=0",
				"--spring.jmx.enabled=false", "--spring.profiles.active=elicitation",
				"--sample.workspace.root=" + workspace, "--sample.approver.username=alice",
				"--sample.approver.password=alice-secret", "--agent.middleware.approval.store.poll-interval=200ms",
				"--agent.middleware.approval.store.instance-id=" + name,
				"--agent.middleware.mcp.request-state.secret=" + SECRET,
				"--agent.middleware.mcp.input-required.approval-round=1s",
				"--agent.middleware.mcp.tasks.poll-interval=200ms");
	}

	@Test
	void callsGoToBothInstancesInTurn() throws Exception {
		JsonNode seen = flow("call");

		assertThat(seen.get("protocolVersion").asString()).isEqualTo("2026-07-28");
		assertThat(seen.get("tools")).anySatisfy((tool) -> {
			assertThat(tool.get("name").asString()).isEqualTo("archive_directory");
			assertThat(tool.get("taskSupport").asString()).isEqualTo("optional");
		});
		assertThat(seen.get("weather").get("structuredContent").get("city").asString()).isEqualTo("Round Robin");
		assertThat(methods(seen)).containsExactly("server/discover", "tools/list", "tools/call");
		assertStrictRoundRobin(seen);
	}

	@Test
	void approvalDecidedByTheClientsUserIsAnsweredOnTheOtherInstance() throws Exception {
		Path file = Files.writeString(workspace.resolve("rr-user.txt"), "delete me");

		JsonNode seen = flow("user-approval", "rr-user.txt");

		assertThat(seen.get("asked")).singleElement()
			.satisfies((message) -> assertThat(message.asString()).contains("delete_file", "rr-user.txt"));
		assertThat(seen.get("call").get("text").asString()).isEqualTo("Deleted rr-user.txt");
		assertThat(file).doesNotExist();
		assertThat(instancesOf(seen, "tools/call")).as("the call, then its retry with the answer").hasSize(2);
		assertStrictRoundRobin(seen);
		assertThat(audit("delete_file", "rr-user.txt")).containsExactly("APPROVED by mcp-client ts-sdk-2-flows");
	}

	@Test
	void approvalDecidedThroughTheApiOfTheOtherInstanceWhileTheClientRetries() throws Exception {
		Path file = Files.writeString(workspace.resolve("rr-console.txt"), "delete me");
		CompletableFuture<JsonNode> flow = CompletableFuture
			.supplyAsync(() -> flowUnchecked("console-approval", "rr-console.txt"));
		ApprovalApi approverOnA = new ApprovalApi(port(this.instanceA), "alice", "alice-secret");
		JsonNode request = approverOnA.awaitPendingFor("delete_file", "rr-console.txt");
		// Undecided for more than a round: the client retries on the requestState alone
		await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> !flow.isDone());
		assertThat(approverOnA.approve(request.get("id").asString()).status()).isEqualTo(200);

		JsonNode seen = flow.get(60, TimeUnit.SECONDS);
		assertThat(seen.get("asked")).isEmpty();
		assertThat(seen.get("call").get("text").asString()).isEqualTo("Deleted rr-console.txt");
		assertThat(file).doesNotExist();
		List<Integer> rounds = instancesOf(seen, "tools/call");
		assertThat(rounds).as("the call (on B, decided on A) and its retries").hasSizeGreaterThanOrEqualTo(2);
		assertThat(rounds.get(0)).isOne();
		assertStrictRoundRobin(seen);
		assertThat(audit("delete_file", "rr-console.txt")).containsExactly("APPROVED by alice");
	}

	@Test
	void tamperedRequestStateIsRefusedByTheOtherInstance() throws Exception {
		Path file = Files.writeString(workspace.resolve("rr-tampered.txt"), "keep me");

		JsonNode seen = flow("tampered", "rr-tampered.txt");

		assertThat(seen.get("asked")).hasSize(1);
		assertThat(seen.get("tampered").asInt()).isOne();
		assertThat(seen.get("call").get("code").asInt()).isEqualTo(-32602);
		assertThat(seen.get("call").get("message").asString()).contains("requestState", "integrity check");
		assertThat(instancesOf(seen, "tools/call")).containsExactly(1, 0);
		assertStrictRoundRobin(seen);
		assertThat(file).hasContent("keep me");
		assertThat(new ApprovalApi(port(this.instanceB), "alice", "alice-secret").pending())
			.anySatisfy((request) -> assertThat(request.get("arguments").path("path").asString(null))
				.isEqualTo("rr-tampered.txt"));
		assertThat(audit("delete_file", "rr-tampered.txt")).isEmpty();
	}

	@Test
	void taskIsPolledToItsResultOnBothInstances() throws Exception {
		Path directory = Files.createDirectories(workspace.resolve("rr-task"));
		Files.writeString(directory.resolve("a.txt"), "a");
		Files.writeString(directory.resolve("b.txt"), "b");
		CompletableFuture<JsonNode> flow = CompletableFuture.supplyAsync(() -> flowUnchecked("task", "rr-task"));
		// The task runs on B, which took the call; its approval is granted on A
		ApprovalApi approverOnA = new ApprovalApi(port(this.instanceA), "alice", "alice-secret");
		JsonNode request = approverOnA
			.awaitPending(TypeScriptModernClientApprovalIntegrationTests.archiving("rr-task"));
		assertThat(approverOnA.approve(request.get("id").asString()).status()).isEqualTo(200);

		JsonNode seen = flow.get(60, TimeUnit.SECONDS);
		TypeScriptModernClientApprovalIntegrationTests.assertTaskCompleted(seen, "rr-task");
		assertThat(instancesOf(seen, "tools/call")).containsExactly(1);
		assertThat(instancesOf(seen, "tasks/get")).contains(0, 1);
		assertStrictRoundRobin(seen);
		assertThat(JdbcClient.create(this.dataSource)
			.sql("SELECT COUNT(*) FROM agent_mcp_task")
			.query(Long.class)
			.single()).as("the tasks are kept in the database").isPositive();
		assertThat(workspace.resolve("rr-task.zip")).exists();
		assertThat(directory.resolve("a.txt")).doesNotExist();
	}

	@Test
	void taskCancelledOnTheOtherInstanceWithdrawsItsApproval() throws Exception {
		Path directory = Files.createDirectories(workspace.resolve("rr-cancel"));
		Files.writeString(directory.resolve("a.txt"), "a");

		JsonNode seen = flow("task-cancel", "rr-cancel",
				"http://localhost:" + port(this.instanceB) + "/agent/approvals", "alice:alice-secret");

		TypeScriptModernClientApprovalIntegrationTests.assertTaskCancelled(seen,
				new ApprovalApi(port(this.instanceA), "alice", "alice-secret"));
		assertThat(instancesOf(seen, "tasks/cancel")).as("cancelled on the instance that does not run it")
			.doesNotContainAnyElementsOf(instancesOf(seen, "tools/call"));
		assertStrictRoundRobin(seen);
		assertThat(directory.resolve("a.txt")).exists();
		assertThat(workspace.resolve("rr-cancel.zip")).doesNotExist();
	}

	private JsonNode flow(String name, String... arguments) throws Exception {
		List<String> all = new ArrayList<>(
				List.of(name, TypeScriptModernClientApprovalIntegrationTests.mcpUrl(port(this.instanceA)) + ","
						+ TypeScriptModernClientApprovalIntegrationTests.mcpUrl(port(this.instanceB))));
		all.addAll(List.of(arguments));
		return TypeScriptModernClientApprovalIntegrationTests.flow(all.toArray(String[]::new));
	}

	private JsonNode flowUnchecked(String name, String... arguments) {
		try {
			return flow(name, arguments);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	// Every request went to the other instance than the one before, and both served
	private static void assertStrictRoundRobin(JsonNode seen) {
		List<Integer> instances = seen.get("requests")
			.valueStream()
			.map((request) -> request.get("instance").asInt())
			.toList();
		assertThat(instances).as("the instances of %s", seen.get("requests")).contains(0, 1);
		for (int i = 1; i < instances.size(); i++) {
			assertThat(instances.get(i)).as("request %d of %s", i, seen.get("requests"))
				.isNotEqualTo(instances.get(i - 1));
		}
	}

	private static List<String> methods(JsonNode seen) {
		return seen.get("requests").valueStream().map((request) -> request.get("method").asString()).toList();
	}

	private static List<Integer> instancesOf(JsonNode seen, String method) {
		return seen.get("requests")
			.valueStream()
			.filter((request) -> request.get("method").asString().equals(method))
			.map((request) -> request.get("instance").asInt())
			.toList();
	}

	// The audit records of the approvals of a tool's calls on a path
	private List<String> audit(String tool, String path) {
		return JdbcClient.create(this.dataSource)
			.sql("SELECT a.outcome, a.decided_by FROM agent_approval_audit a JOIN agent_approval_request r"
					+ " ON r.id = a.request_id WHERE r.tool_name = ? AND r.arguments LIKE ?")
			.param(tool)
			.param("%" + path + "%")
			.query((rs, row) -> rs.getString(1) + " by " + rs.getString(2))
			.list();
	}

	private static int port(@Nullable ConfigurableApplicationContext context) {
		assertThat(context).isNotNull();
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@Configuration(proxyBeanMethods = false)
	static class SharedDatabase {

		static DataSource dataSource;

		@Bean
		DataSource dataSource() {
			return dataSource;
		}

	}

}
