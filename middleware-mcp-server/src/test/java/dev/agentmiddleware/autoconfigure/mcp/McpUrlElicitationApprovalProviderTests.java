package dev.agentmiddleware.autoconfigure.mcp;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult.Action;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The link provider against the MCP SDK's real server exchange, whose client end is
 * scripted: what it sends, when it supports a call, and what the client's answer does.
 * The provider's thread is a single-thread executor, shut down and awaited before the
 * answer's effect is checked, so nothing here waits on time.
 */
class McpUrlElicitationApprovalProviderTests {

	private static final Map<String, Object> FROM_LOCALHOST = ScriptedMcpClient.reachedUnder("http://localhost:8080");

	private static final ToolDescriptor DELETE_FILE = ToolDescriptor.builder("delete_file")
		.safety(SafetyLevel.DANGEROUS)
		.build();

	private final ExecutorService executor = Executors.newSingleThreadExecutor();

	@AfterEach
	void stopExecutor() {
		this.executor.shutdownNow();
	}

	@Test
	void supportsOnlyMcpCallsOfClientsThatDeclaredUrlElicitation() {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.ACCEPT);
		McpUrlElicitationApprovalProvider provider = provider(null, client);
		assertThat(provider.supports(ToolInvocation.builder(DELETE_FILE).build())).as("a Java call").isFalse();
		assertThat(provider
			.supports(call(client.exchange(McpSchema.ClientCapabilities.builder().build(), FROM_LOCALHOST))))
			.as("no elicitation")
			.isFalse();
		assertThat(provider.supports(
				call(client.exchange(McpSchema.ClientCapabilities.builder().elicitation().build(), FROM_LOCALHOST))))
			.as("form mode only")
			.isFalse();
		assertThat(provider.supports(call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST))))
			.as("url mode")
			.isTrue();
		assertThat(provider.supports(call(client.exchange(ScriptedMcpClient.urlElicitation(), Map.of()))))
			.as("url mode, but no base URL for the link")
			.isFalse();
		assertThat(provider(URI.create("https://agents.example.com"), client)
			.supports(call(client.exchange(ScriptedMcpClient.urlElicitation(), Map.of()))))
			.as("url mode with a public URL")
			.isTrue();
	}

	@Test
	void sendsAUrlElicitationNamingTheConsolePageOfTheRequest() throws Exception {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.ACCEPT);
		provider(null, client).requestApproval(request("r-1"),
				call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)));
		awaitProviderThread();
		assertThat(client.requests()).singleElement()
			.isInstanceOfSatisfying(McpSchema.ElicitUrlRequest.class, (sent) -> {
				assertThat(sent.mode()).isEqualTo("url");
				assertThat(sent.url()).isEqualTo("http://localhost:8080/agent/approvals/console/requests/r-1");
				assertThat(sent.elicitationId()).isEqualTo("r-1");
				assertThat(sent.message()).contains("dangerous tool 'delete_file'", "an approver decides",
						"delete_file {\"path\":\"notes.txt\"}");
			});
	}

	@Test
	void theConfiguredPublicUrlWinsOverTheRequestsOwn() throws Exception {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.ACCEPT);
		provider(URI.create("https://agents.example.com/tools/"), client).requestApproval(request("r-2"),
				call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)));
		awaitProviderThread();
		assertThat(((McpSchema.ElicitUrlRequest) client.requests().get(0)).url())
			.isEqualTo("https://agents.example.com/tools/agent/approvals/console/requests/r-2");
	}

	@Test
	void acceptOnlyMeansOpenedAndTheCallKeepsWaitingForAnApprover() throws Exception {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.ACCEPT);
		CompletableFuture<ApprovalDecision> decision = provider(null, client)
			.requestApproval(request("r-3"), call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)))
			.toCompletableFuture();
		awaitProviderThread();
		assertThat(decision).isNotDone();
	}

	@Test
	void declineAndCancelWithdrawTheRequestWhichDeniesTheCall() throws Exception {
		for (Action action : new Action[] { Action.DECLINE, Action.CANCEL }) {
			ScriptedMcpClient client = ScriptedMcpClient.answering(action);
			ApprovalDecision decision = new McpUrlElicitationApprovalProvider(Executors.newSingleThreadExecutor(),
					"/agent/approvals", null, client::transport)
				.requestApproval(request("r-4"),
						call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)))
				.toCompletableFuture()
				.get(10, TimeUnit.SECONDS);
			assertThat(decision.outcome()).as(action.name()).isEqualTo(ApprovalOutcome.DENIED);
			assertThat(decision.decidedBy()).isEqualTo("mcp-client inspector");
			assertThat(decision.reason()).contains("withdrew the request");
			assertThat(client.notified()).as("the client ended it itself").isEmpty();
		}
	}

	@Test
	void theClientsOwnNameReachesTheAuditOnOneLineAndShort() throws Exception {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.DECLINE);
		ApprovalDecision decision = provider(null, client)
			.requestApproval(request("r-7"), call(client.exchange("evil\nINFO forged line" + "x".repeat(100),
					ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)))
			.toCompletableFuture()
			.get(10, TimeUnit.SECONDS);
		assertThat(decision.decidedBy()).startsWith("mcp-client evil?INFO forged line")
			.doesNotContain("\n")
			.hasSize("mcp-client ".length() + 64 + 1);
	}

	@Test
	void aClientThatFailsToAnswerLeavesTheRequestWaitingForAnApprover() throws Exception {
		ScriptedMcpClient client = new ScriptedMcpClient((request) -> Mono
			.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
					"Client does not support URL-mode elicitation", null))));
		CompletableFuture<ApprovalDecision> decision = provider(null, client)
			.requestApproval(request("r-5"), call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)))
			.toCompletableFuture();
		awaitProviderThread();
		assertThat(decision).isNotDone();
	}

	@Test
	void whenTheWaitEndsTheClientIsToldTheElicitationIsCompleteOnItsSession() throws Exception {
		ScriptedMcpClient client = ScriptedMcpClient.answering(Action.ACCEPT);
		CompletableFuture<ApprovalDecision> decision = provider(null, client)
			.requestApproval(request("r-6"), call(client.exchange(ScriptedMcpClient.urlElicitation(), FROM_LOCALHOST)))
			.toCompletableFuture();
		// The approval wait cancels the provider's stage once the store has the decision
		// (or the wait timed out)
		decision.cancel(true);
		assertThat(client.notified()).containsExactly("session-1 notifications/elicitation/complete r-6");
	}

	private McpUrlElicitationApprovalProvider provider(URI publicUrl, ScriptedMcpClient client) {
		return new McpUrlElicitationApprovalProvider(this.executor, "/agent/approvals", publicUrl, client::transport);
	}

	// The provider's question is on its single thread: once that thread ran everything,
	// the answer was handled
	private void awaitProviderThread() throws InterruptedException {
		this.executor.shutdown();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	private static ToolInvocation call(McpSyncServerExchange exchange) {
		return ToolInvocation.builder(DELETE_FILE)
			.argument("path", "notes.txt")
			.sessionId("session-1")
			.attribute(McpInvocationAttributes.EXCHANGE, exchange)
			.build();
	}

	private static ApprovalRequest request(String id) {
		Instant now = Instant.parse("2026-11-25T12:00:00Z");
		return new ApprovalRequest(id, "delete_file", SafetyLevel.DANGEROUS, "{\"path\":\"notes.txt\"}", "hash",
				"session-1", "alice", "delete_file {\"path\":\"notes.txt\"}", now, now.plusSeconds(120));
	}

}
