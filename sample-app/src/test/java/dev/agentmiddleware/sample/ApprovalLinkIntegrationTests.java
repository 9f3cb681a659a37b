package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.approval.web.ApprovalController;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitUrlRequest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approval by link with the MCP Java SDK's client declaring URL-mode elicitation, in an
 * application whose callers and approvers log in (the default providers: callback, link,
 * queue): the link names the call's page in the console, which only approvers may open;
 * the caller may not approve its own call from it, another approver does, and the client
 * is told the elicitation is complete. Declining the link withdraws the request; a client
 * without URL elicitation gets no link and its call waits in the queue.
 */
@SpringBootTest(classes = AuthorizationMcpIntegrationTests.RecordsApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=authorization-it", "agent.middleware.todo.enabled=false" })
class ApprovalLinkIntegrationTests {

	private static final String PASSWORD = AuthorizationMcpIntegrationTests.PASSWORD;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void onlyAnotherApproverApprovesFromTheLinkAndTheClientIsToldTheElicitationIsComplete() throws Exception {
		BlockingQueue<ElicitUrlRequest> links = new LinkedBlockingQueue<>();
		BlockingQueue<String> completed = new LinkedBlockingQueue<>();
		ApprovalApi self = new ApprovalApi(this.port, "alice", PASSWORD);
		ApprovalApi carol = new ApprovalApi(this.port, "carol", PASSWORD);
		try (McpSyncClient alice = client("alice", (link) -> {
			links.add(link);
			return new ElicitResult(ElicitResult.Action.ACCEPT, null);
		}, completed)) {
			CompletableFuture<CallToolResult> call = callAsync(alice, "purge_records");
			ElicitUrlRequest link = links.poll(20, TimeUnit.SECONDS);
			assertThat(link).as("the link").isNotNull();
			String id = link.elicitationId();
			assertThat(link.url())
				.isEqualTo("http://localhost:" + this.port + "/agent/approvals/console/requests/" + id);
			assertThat(link.message()).contains("purge_records").contains("approver decides");
			assertThat(self.pending()).extracting((request) -> request.get("id").asString()).containsExactly(id);
			assertThat(call).as("accept only means the link was opened").isNotDone();

			assertThat(page(link.url(), null)).as("anonymous").isEqualTo(401);
			assertThat(page(link.url(), "bob")).as("without the approver role").isEqualTo(403);
			assertThat(page(link.url(), "carol")).as("an approver").isEqualTo(200);

			ApprovalApi.Response refused = self.approve(id);
			assertThat(refused.status()).isEqualTo(403);
			assertThat(refused.json().get("rule").asString()).isEqualTo(ApprovalController.NO_SELF_APPROVAL);
			assertThat(carol.approve(id).status()).isEqualTo(200);

			assertThat(McpSession.text(call.get(20, TimeUnit.SECONDS))).isEqualTo("purged 2 records");
			assertThat(completed.poll(20, TimeUnit.SECONDS)).as("notifications/elicitation/complete").isEqualTo(id);
			assertThat(carol.audit()).first().satisfies((entry) -> {
				assertThat(entry.get("requestId").asString()).isEqualTo(id);
				assertThat(entry.get("principal").asString()).isEqualTo("alice");
				assertThat(entry.get("decidedBy").asString()).isEqualTo("carol");
				assertThat(entry.get("outcome").asString()).isEqualTo("approved");
			});
		}
	}

	@Test
	void decliningTheLinkWithdrawsTheRequestAndDeniesTheCall() throws Exception {
		ApprovalApi carol = new ApprovalApi(this.port, "carol", PASSWORD);
		try (McpSyncClient alice = client("alice", (link) -> new ElicitResult(ElicitResult.Action.DECLINE, null),
				new LinkedBlockingQueue<>())) {
			CallToolResult result = callAsync(alice, "purge_records").get(20, TimeUnit.SECONDS);
			assertThat(result.isError()).isTrue();
			assertThat(McpSession.text(result)).contains("was denied by approval")
				.contains("the caller declined the approval link and withdrew the request");
			assertThat(carol.pending()).isEmpty();
			assertThat(carol.audit()).first().satisfies((entry) -> {
				assertThat(entry.get("outcome").asString()).isEqualTo("denied");
				assertThat(entry.get("decidedBy").asString()).isEqualTo("mcp-client link-test");
			});
		}
	}

	@Test
	void aClientWithoutUrlElicitationGetsNoLinkAndItsCallWaitsInTheQueue() throws Exception {
		ApprovalApi carol = new ApprovalApi(this.port, "carol", PASSWORD);
		BlockingQueue<McpSchema.ElicitFormRequest> forms = new LinkedBlockingQueue<>();
		HttpClientStreamableHttpTransport transport = transport("alice");
		try (McpSyncClient alice = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(30))
			.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
			.elicitation((form) -> {
				forms.add(form);
				return new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("decision", "approve"));
			})
			.build()) {
			alice.initialize();
			CompletableFuture<CallToolResult> call = callAsync(alice, "purge_records");
			String id = carol.awaitPending((request) -> request.get("tool").asString().equals("purge_records"))
				.get("id")
				.asString();
			assertThat(carol.deny(id, "not now").status()).isEqualTo(200);
			assertThat(call.get(20, TimeUnit.SECONDS).isError()).isTrue();
			assertThat(forms).as("the form-mode provider is not listed; the queue asked").isEmpty();
		}
	}

	private McpSyncClient client(String user, java.util.function.Function<ElicitUrlRequest, ElicitResult> links,
			BlockingQueue<String> completed) {
		McpSyncClient client = McpClient.sync(transport(user))
			.clientInfo(new McpSchema.Implementation("link-test", "1.0.0"))
			.requestTimeout(Duration.ofSeconds(30))
			.capabilities(McpSchema.ClientCapabilities.builder()
				.elicitation(McpSchema.ClientCapabilities.Elicitation.builder()
					.url(new McpSchema.ClientCapabilities.Elicitation.Url())
					.build())
				.build())
			.urlElicitation(links)
			.elicitationCompleteConsumer((notification) -> completed.add(notification.elicitationId()))
			.build();
		client.initialize();
		return client;
	}

	private HttpClientStreamableHttpTransport transport(String user) {
		return HttpClientStreamableHttpTransport.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.requestBuilder(HttpRequest.newBuilder().header("Authorization", basic(user)))
			.build();
	}

	private static CompletableFuture<CallToolResult> callAsync(McpSyncClient client, String tool) {
		return CompletableFuture.supplyAsync(() -> client.callTool(new McpSchema.CallToolRequest(tool, Map.of())),
				(task) -> {
					Thread caller = new Thread(task, "mcp-test-call-" + tool);
					caller.setDaemon(true);
					caller.start();
				});
	}

	private int page(String url, String user) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/html").GET();
		if (user != null) {
			request.header("Authorization", basic(user));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	private static String basic(String user) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
	}

}
