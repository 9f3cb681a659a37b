package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Human approval over the real sample app: the MCP Java SDK's client calls
 * {@code delete_file}, the call waits, and an approver decides through the REST API over
 * HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
@ActiveProfiles("elicitation") // the elicitation tests below; clients without the
								// capability still reach the queue
class SampleAppApprovalIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	private McpSession session;

	private ApprovalApi approver;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	InMemoryUserDetailsManager users;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@BeforeEach
	void connect() {
		this.session = McpSession.open(this.port);
		this.approver = new ApprovalApi(this.port, "alice", "alice-secret");
	}

	@AfterEach
	void disconnect() {
		this.session.close();
	}

	private Path file(String name) throws Exception {
		Path file = workspace.resolve(name);
		Files.writeString(file, "keep me");
		return file;
	}

	private CompletableFuture<CallToolResult> deleteAsync(McpSession session, String path) {
		return session.callAsync("delete_file", Map.of("path", path));
	}

	@Test
	void dangerousCallWaitsUntilApprovedThroughTheRestApiThenRunsOnce() throws Exception {
		Path file = file("approve-me.txt");
		CompletableFuture<CallToolResult> call = deleteAsync(this.session, "approve-me.txt");
		JsonNode request = this.approver.awaitPendingFor("delete_file", "approve-me.txt");
		assertThat(request.get("summary").asString()).isEqualTo("delete_file {\"path\":\"approve-me.txt\"}");
		assertThat(request.get("session").asString()).isNotBlank();
		assertThat(request.get("safety").asString()).isEqualTo("DANGEROUS");
		assertThat(call).isNotDone();
		assertThat(file).exists();

		ApprovalApi.Response approved = this.approver.approve(request.get("id").asString());
		assertThat(approved.status()).isEqualTo(200);
		assertThat(McpSession.text(call.get(30, TimeUnit.SECONDS))).isEqualTo("Deleted approve-me.txt");
		assertThat(file).doesNotExist();

		assertThat(this.approver.approve(request.get("id").asString()).status()).isEqualTo(409);
		assertThat(this.approver.approve("no-such-request").status()).isEqualTo(404);
		String hugeId = "x".repeat(5_000);
		ApprovalApi.Response unknown = this.approver.approve(hugeId);
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.body()).contains("No approval request with this id")
			.doesNotContain("xxxxxxxxxx")
			.hasSizeLessThan(200);
		assertThat(this.approver.audit()).anySatisfy((record) -> {
			assertThat(record.get("requestId").asString()).isEqualTo(request.get("id").asString());
			assertThat(record.get("outcome").asString()).isEqualTo("approved");
			assertThat(record.get("decidedBy").asString()).isEqualTo("alice");
		});
	}

	@Test
	void deniedCallIsAnErrorWithTheReasonAndTheToolNeverRan() throws Exception {
		Path file = file("deny-me.txt");
		CompletableFuture<CallToolResult> call = deleteAsync(this.session, "deny-me.txt");
		JsonNode request = this.approver.awaitPendingFor("delete_file", "deny-me.txt");
		assertThat(this.approver.deny(request.get("id").asString(), "keep the notes").status()).isEqualTo(200);
		CallToolResult result = call.get(30, TimeUnit.SECONDS);
		assertThat(result.isError()).isTrue();
		assertThat(McpSession.text(result))
			.endsWith("alice denied it: keep the notes. Do not retry this call unless the user asks you to.")
			.doesNotContain("Exception")
			.doesNotContain("\tat ");
		assertThat(file).exists();

		// The same call again in the same session is denied at once, without asking.
		String repeated = this.session.fail("delete_file", Map.of("path", "deny-me.txt"));
		assertThat(repeated).contains("the same call was denied by alice earlier in this session: keep the notes");
		assertThat(this.approver.pending())
			.noneMatch((pending) -> pending.get("summary").asString().contains("deny-me"));
		assertThat(file).exists();
	}

	@Test
	void approvalForTheSessionCoversTheSameCallButNotOtherArgumentsOrSessions() throws Exception {
		file("session-a.txt");
		file("session-b.txt");
		CompletableFuture<CallToolResult> first = deleteAsync(this.session, "session-a.txt");
		JsonNode request = this.approver.awaitPendingFor("delete_file", "session-a.txt");
		assertThat(this.approver.approveForSession(request.get("id").asString()).status()).isEqualTo(200);
		assertThat(McpSession.text(first.get(30, TimeUnit.SECONDS))).isEqualTo("Deleted session-a.txt");

		// The identical call runs without asking (the file is gone, so the tool itself
		// now fails).
		file("session-a.txt");
		assertThat(this.session.succeed("delete_file", Map.of("path", "session-a.txt")))
			.isEqualTo("Deleted session-a.txt");
		assertThat(this.approver.audit().get(0).get("outcome").asString()).isEqualTo("granted");

		// Other arguments in the same session ask again.
		CompletableFuture<CallToolResult> other = deleteAsync(this.session, "session-b.txt");
		JsonNode otherRequest = this.approver.awaitPendingFor("delete_file", "session-b.txt");
		this.approver.deny(otherRequest.get("id").asString(), "not that one");
		assertThat(other.get(30, TimeUnit.SECONDS).isError()).isTrue();

		// The same arguments from another session ask again.
		file("session-a.txt");
		try (McpSession another = McpSession.open(this.port)) {
			CompletableFuture<CallToolResult> elsewhere = deleteAsync(another, "session-a.txt");
			JsonNode elsewhereRequest = this.approver.awaitPendingFor("delete_file", "session-a.txt");
			assertThat(elsewhereRequest.get("session").asString()).isNotEqualTo(request.get("session").asString());
			this.approver.deny(elsewhereRequest.get("id").asString(), "other session");
			assertThat(elsewhere.get(30, TimeUnit.SECONDS).isError()).isTrue();
		}
		assertThat(workspace.resolve("session-a.txt")).exists();
		assertThat(workspace.resolve("session-b.txt")).exists();
	}

	@Test
	void changedArgumentsRunWithTheChangedValuesAndAnInvalidChangeIsRefused() throws Exception {
		Path important = file("important.txt");
		Path scratch = file("scratch.txt");
		CompletableFuture<CallToolResult> call = deleteAsync(this.session, "important.txt");
		JsonNode request = this.approver.awaitPendingFor("delete_file", "important.txt");
		String id = request.get("id").asString();

		ApprovalApi.Response invalid = this.approver.approveWithArguments(id, Map.of("file", "scratch.txt"));
		assertThat(invalid.status()).isEqualTo(400);
		assertThat(invalid.json().get("error").asString()).contains("delete_file").contains("path");
		assertThat(call).isNotDone();

		assertThat(this.approver.approveWithArguments(id, Map.of("path", "scratch.txt")).status()).isEqualTo(200);
		assertThat(McpSession.text(call.get(30, TimeUnit.SECONDS))).isEqualTo("Deleted scratch.txt");
		assertThat(scratch).doesNotExist();
		assertThat(important).exists();
		assertThat(this.approver.audit().get(0).get("outcome").asString()).isEqualTo("approved-with-changes");
	}

	@Test
	void parallelWaitingCallsGetTheirOwnOutcomes() throws Exception {
		Path one = file("parallel-one.txt");
		Path two = file("parallel-two.txt");
		CompletableFuture<CallToolResult> first = deleteAsync(this.session, "parallel-one.txt");
		CompletableFuture<CallToolResult> second = deleteAsync(this.session, "parallel-two.txt");
		JsonNode firstRequest = this.approver.awaitPendingFor("delete_file", "parallel-one.txt");
		JsonNode secondRequest = this.approver.awaitPendingFor("delete_file", "parallel-two.txt");
		this.approver.deny(firstRequest.get("id").asString(), "not this one");
		assertThat(McpSession.text(first.get(30, TimeUnit.SECONDS))).contains("not this one");
		assertThat(second).isNotDone();
		assertThat(this.approver.pending()).extracting((pending) -> pending.get("id").asString())
			.contains(secondRequest.get("id").asString());
		this.approver.approve(secondRequest.get("id").asString());
		assertThat(McpSession.text(second.get(30, TimeUnit.SECONDS))).isEqualTo("Deleted parallel-two.txt");
		assertThat(one).exists();
		assertThat(two).doesNotExist();
	}

	@Test
	void readOnlyToolsRunWithoutAsking() throws Exception {
		file("read-me.txt");
		assertThat(this.session.succeed("read_file", Map.of("path", "read-me.txt"))).isEqualTo("keep me");
		assertThat(this.session.succeed("write_file", Map.of("path", "written.txt", "content", "x")))
			.startsWith("Wrote");
	}

	@Test
	void anonymousUsersCannotSeeOrDecideApprovals() {
		ApprovalApi anonymous = ApprovalApi.anonymous(this.port);
		assertThat(anonymous.get("").status()).isEqualTo(401);
		assertThat(anonymous.console().status()).isEqualTo(401);
		assertThat(anonymous.post("/any/approve", Map.of()).status()).isEqualTo(401);
		assertThat(new ApprovalApi(this.port, "alice", "wrong").get("").status()).isEqualTo(401);
		// Logged in, but without the approver role.
		if (!this.users.userExists("bob")) {
			this.users.createUser(User.withUsername("bob").password("{noop}bob-secret").roles("VIEWER").build());
		}
		ApprovalApi bob = new ApprovalApi(this.port, "bob", "bob-secret");
		assertThat(bob.get("").status()).isEqualTo(403);
		assertThat(bob.console().status()).isEqualTo(403);
		assertThat(bob.post("/any/approve", Map.of()).status()).isEqualTo(403);
		assertThat(this.approver.console().body()).contains("Tool call approvals").contains("/agent/approvals");
		assertThat(List.of(this.session.toolNames())).isNotEmpty();
	}

	@Test
	void mcpClientThatSupportsElicitationApprovesThroughElicitation() throws Exception {
		Path file = file("elicit-me.txt");
		List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
		try (McpSession eliciting = McpSession.openWithElicitation(this.port, (request) -> {
			asked.add(request.message());
			return new io.modelcontextprotocol.spec.McpSchema.ElicitResult(
					io.modelcontextprotocol.spec.McpSchema.ElicitResult.Action.ACCEPT, Map.of("decision", "approve"));
		})) {
			assertThat(eliciting.succeed("delete_file", Map.of("path", "elicit-me.txt")))
				.isEqualTo("Deleted elicit-me.txt");
		}
		assertThat(asked).singleElement().asString().contains("delete_file").contains("elicit-me.txt");
		assertThat(file).doesNotExist();
		assertThat(this.approver.audit().get(0).get("decidedBy").asString()).startsWith("mcp-client");
	}

	@Test
	void elicitationDeclineDeniesTheCall() throws Exception {
		Path file = file("decline-me.txt");
		try (McpSession eliciting = McpSession.openWithElicitation(this.port,
				(request) -> new io.modelcontextprotocol.spec.McpSchema.ElicitResult(
						io.modelcontextprotocol.spec.McpSchema.ElicitResult.Action.DECLINE, null))) {
			assertThat(eliciting.fail("delete_file", Map.of("path", "decline-me.txt"))).contains("the user declined");
		}
		assertThat(file).exists();
	}

	@Test
	void deniedCallIsObservedAsDeniedAndTheActuatorShowsPendingRequestsAndTheAuditTrail() throws Exception {
		file("actuator-watch.txt");
		CompletableFuture<CallToolResult> call = deleteAsync(this.session, "actuator-watch.txt");
		JsonNode request = this.approver.awaitPendingFor("delete_file", "actuator-watch.txt");
		String id = request.get("id").asString();
		String pendingView = actuator();
		JsonNode approval = tools.jackson.databind.json.JsonMapper.shared()
			.readTree(pendingView)
			.path("sections")
			.path("approval");
		assertThat(approval.path("policy").asString()).isEqualTo("dangerous");
		assertThat(approval.path("pending").valueStream().map((pending) -> pending.path("id").asString())).contains(id);
		assertThat(pendingView).doesNotContain("actuator-watch.txt");

		this.approver.deny(id, "watched");
		assertThat(call.get(30, TimeUnit.SECONDS).isError()).isTrue();
		String decidedView = actuator();
		JsonNode audit = tools.jackson.databind.json.JsonMapper.shared()
			.readTree(decidedView)
			.path("sections")
			.path("approval")
			.path("audit");
		assertThat(audit.valueStream()).anySatisfy((record) -> {
			assertThat(record.path("requestId").asString()).isEqualTo(id);
			assertThat(record.path("outcome").asString()).isEqualTo("denied");
			assertThat(record.path("decidedBy").asString()).isEqualTo("alice");
		});
		assertThat(decidedView).doesNotContain("actuator-watch.txt");
		assertThat(this.meterRegistry.get("agent.tool.call")
			.tag("agent.tool.name", "delete_file")
			.tag("agent.tool.outcome", "denied")
			.timer()
			.count()).isPositive();
		assertThat(this.meterRegistry.get("agent.tool.approvals")
			.tag("outcome", "denied")
			.tag("agent.tool.name", "delete_file")
			.counter()
			.count()).isPositive();
	}

	private String actuator() throws Exception {
		java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest
				.newBuilder(java.net.URI.create("http://localhost:" + this.port + "/actuator/agentmiddleware"))
				.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

}
