package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approvals of MCP {@code 2026-07-28} calls as {@code input_required} round trips, over
 * real HTTP, on two sample instances that share the requestState key and a JDBC approval
 * store on H2 (no session, no sticky routing): every retry goes to the other instance. An
 * approval decided by the client's user (the {@code elicitation} profile: the question is
 * the input request {@code approval}), an approval decided through the REST API while the
 * client retries (each round answers {@code input_required} with only the state after the
 * approval round), and a tampered state refused. One request, one decision, one audit
 * record, whichever instance serves a round.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatelessMcpApprovalIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String SECRET = "c3RhdGVsZXNzLWFwcHJvdmFsLXRlc3RzLWtleS0zMi1ieXRlcyE=";

	private static final Map<String, Object> ELICITATION = Map.of("elicitation", Map.of());

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:stateless-approvals-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	private final HttpClient http = HttpClient.newHttpClient();

	private final AtomicInteger ids = new AtomicInteger();

	@TempDir
	static Path workspace;

	private ConfigurableApplicationContext instanceA;

	private ConfigurableApplicationContext instanceB;

	@BeforeAll
	void startInstances() {
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
	}

	private ConfigurableApplicationContext start(String name) {
		SharedDatabase.dataSource = this.dataSource;
		return new SpringApplicationBuilder(SampleApplication.class, SharedDatabase.class).run("--server.port=0",
				"--spring.jmx.enabled=false", "--spring.profiles.active=elicitation",
				"--sample.workspace.root=" + workspace, "--sample.approver.username=alice",
				"--sample.approver.password=alice-secret", "--agent.middleware.approval.store.poll-interval=100ms",
				"--agent.middleware.approval.store.instance-id=" + name,
				"--agent.middleware.mcp.request-state.secret=" + SECRET,
				"--agent.middleware.mcp.input-required.approval-round=1s");
	}

	@Test
	void approvalDecidedByTheClientsUserTakesTwoRoundsOnTwoInstances() throws Exception {
		Path file = Files.writeString(workspace.resolve("user-approves.txt"), "delete me");
		JsonNode round1 = call(port(this.instanceA), "delete_file", Map.of("path", "user-approves.txt"), ELICITATION,
				Map.of());
		assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
		JsonNode question = round1.get("inputRequests").get("approval");
		assertThat(question.get("method").asString()).isEqualTo("elicitation/create");
		assertThat(question.get("params").get("message").asString()).contains("delete_file", "user-approves.txt");
		assertThat(question.get("params").get("requestedSchema").get("properties").has("decision")).isTrue();
		assertThat(question.get("params").toString()).as("the key travels as the inputRequests key only")
			.doesNotContain("inputKey");
		String requestId = pendingRequestId("user-approves.txt");

		JsonNode round2 = call(port(this.instanceB), "delete_file", Map.of("path", "user-approves.txt"), ELICITATION,
				Map.of("inputResponses",
						Map.of("approval", Map.of("action", "accept", "content", Map.of("decision", "approve"))),
						"requestState", round1.get("requestState").asString()));

		assertThat(round2.get("resultType").asString()).isEqualTo("complete");
		assertThat(round2.get("isError").asBoolean()).isFalse();
		assertThat(round2.get("content").get(0).get("text").asString()).isEqualTo("Deleted user-approves.txt");
		assertThat(file).doesNotExist();
		assertThat(audit(requestId)).containsExactly("APPROVED by mcp-client stateless-test");
	}

	@Test
	void approvalDeclinedByTheClientsUserDeniesTheCallWithOneAuditRecord() throws Exception {
		Path file = Files.writeString(workspace.resolve("user-declines.txt"), "keep me");
		JsonNode round1 = call(port(this.instanceB), "delete_file", Map.of("path", "user-declines.txt"), ELICITATION,
				Map.of());
		assertThat(round1.get("inputRequests").has("approval")).isTrue();
		String requestId = pendingRequestId("user-declines.txt");

		JsonNode round2 = call(port(this.instanceA), "delete_file", Map.of("path", "user-declines.txt"), ELICITATION,
				Map.of("inputResponses", Map.of("approval", Map.of("action", "decline")), "requestState",
						round1.get("requestState").asString()));

		assertThat(round2.get("resultType").asString()).isEqualTo("complete");
		assertThat(round2.get("isError").asBoolean()).isTrue();
		assertThat(round2.get("content").get(0).get("text").asString()).contains("denied");
		assertThat(file).exists();
		assertThat(audit(requestId)).containsExactly("DENIED by mcp-client stateless-test");
	}

	@Test
	void approvalDecidedThroughTheApiWhileTheClientRetriesOnEitherInstance() throws Exception {
		Path file = Files.writeString(workspace.resolve("console-approves.txt"), "delete me");
		Map<String, Object> arguments = Map.of("path", "console-approves.txt");
		// A client without elicitation: the request waits for an approver
		JsonNode round = call(port(this.instanceA), "delete_file", arguments, Map.of(), Map.of());
		assertThat(round.get("resultType").asString()).isEqualTo("input_required");
		assertThat(round.has("inputRequests")).as("nothing for the client to answer: it retries").isFalse();
		String requestId = pendingRequestId("console-approves.txt");
		assertThat(file).as("still pending after the round: not withdrawn").exists();

		ApprovalApi approverOnB = new ApprovalApi(port(this.instanceB), "alice", "alice-secret");
		assertThat(approverOnB.approve(requestId).status()).isEqualTo(200);
		List<ConfigurableApplicationContext> instances = List.of(this.instanceB, this.instanceA);
		int rounds = 1;
		while ("input_required".equals(round.get("resultType").asString()) && rounds < 10) {
			round = call(port(instances.get(rounds % 2)), "delete_file", arguments, Map.of(),
					Map.of("requestState", round.get("requestState").asString()));
			rounds++;
		}

		assertThat(round.get("resultType").asString()).isEqualTo("complete");
		assertThat(round.get("content").get(0).get("text").asString()).isEqualTo("Deleted console-approves.txt");
		assertThat(file).doesNotExist();
		assertThat(audit(requestId)).containsExactly("APPROVED by alice");
	}

	@Test
	void aTamperedRequestStateIsRefusedAndTheRequestStaysPending() throws Exception {
		Files.writeString(workspace.resolve("tampered.txt"), "keep me");
		Map<String, Object> arguments = Map.of("path", "tampered.txt");
		JsonNode round1 = call(port(this.instanceA), "delete_file", arguments, ELICITATION, Map.of());
		String state = round1.get("requestState").asString();
		String requestId = pendingRequestId("tampered.txt");
		char first = state.charAt(0);
		String tampered = ((first == 'A') ? 'B' : 'A') + state.substring(1);

		JsonNode refused = call(port(this.instanceB), "delete_file", arguments, ELICITATION,
				Map.of("inputResponses",
						Map.of("approval", Map.of("action", "accept", "content", Map.of("decision", "approve"))),
						"requestState", tampered));

		assertThat(refused.get("code").asInt()).isEqualTo(-32602);
		assertThat(refused.get("message").asString()).contains("requestState", "integrity check");
		assertThat(workspace.resolve("tampered.txt")).exists();
		assertThat(new ApprovalApi(port(this.instanceA), "alice", "alice-secret").pending())
			.anySatisfy((request) -> assertThat(request.get("id").asString()).isEqualTo(requestId));
		assertThat(audit(requestId)).isEmpty();
	}

	// The result of a 2026-07-28 tools/call (from its SSE stream), or its error
	private JsonNode call(int port, String tool, Map<String, Object> arguments, Map<String, Object> capabilities,
			Map<String, Object> extra) throws Exception {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("name", tool);
		params.put("arguments", arguments);
		params.putAll(extra);
		params.put("_meta",
				Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
						"io.modelcontextprotocol/clientCapabilities", capabilities,
						"io.modelcontextprotocol/clientInfo", Map.of("name", "stateless-test", "version", "1")));
		Map<String, Object> body = Map.of("jsonrpc", "2.0", "id", this.ids.incrementAndGet(), "method", "tools/call",
				"params", params);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/mcp"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2026-07-28")
			.header("Mcp-Method", "tools/call")
			.header("Mcp-Name", tool)
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode message = lastMessage(response.body());
		return message.has("error") ? message.get("error") : message.get("result");
	}

	private static JsonNode lastMessage(String body) {
		if (body.startsWith("{")) {
			return JSON.readTree(body);
		}
		JsonNode last = null;
		for (String line : body.split("\n")) {
			if (line.startsWith("data:") && line.length() > 5) {
				JsonNode message = JSON.readTree(line.substring(5).trim());
				if (message.has("id")) {
					last = message;
				}
			}
		}
		assertThat(last).as("a response on the stream: " + body).isNotNull();
		return last;
	}

	private String pendingRequestId(String path) {
		return new ApprovalApi(port(this.instanceA), "alice", "alice-secret").awaitPendingFor("delete_file", path)
			.get("id")
			.asString();
	}

	private List<String> audit(String requestId) {
		return new ArrayList<>(JdbcClient.create(this.dataSource)
			.sql("SELECT outcome, decided_by FROM agent_approval_audit WHERE request_id = ?")
			.param(requestId)
			.query((rs, row) -> rs.getString(1) + " by " + rs.getString(2))
			.list());
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
