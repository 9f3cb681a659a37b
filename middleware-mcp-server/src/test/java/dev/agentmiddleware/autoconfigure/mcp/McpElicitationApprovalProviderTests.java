package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolInvocation;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult.Action;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class McpElicitationApprovalProviderTests {

	@Test
	void acceptWithApproveApproves() {
		ApprovalDecision decision = McpElicitationApprovalProvider
			.decision(new ElicitResult(Action.ACCEPT, Map.of("decision", "approve")), "inspector");
		assertThat(decision.outcome()).isEqualTo(ApprovalOutcome.APPROVED);
		assertThat(decision.decidedBy()).isEqualTo("mcp-client inspector");
	}

	@Test
	void acceptWithDenyDeniesWithTheReason() {
		ApprovalDecision decision = McpElicitationApprovalProvider
			.decision(new ElicitResult(Action.ACCEPT, Map.of("decision", "deny", "reason", "not today")), "inspector");
		assertThat(decision.outcome()).isEqualTo(ApprovalOutcome.DENIED);
		assertThat(decision.reason()).isEqualTo("not today");
	}

	@Test
	void acceptWithoutADecisionDenies() {
		assertThat(McpElicitationApprovalProvider.decision(new ElicitResult(Action.ACCEPT, Map.of()), "c").outcome())
			.isEqualTo(ApprovalOutcome.DENIED);
	}

	@Test
	void declineAndCancelDeny() {
		assertThat(McpElicitationApprovalProvider.decision(new ElicitResult(Action.DECLINE, null), "c"))
			.satisfies((decision) -> {
				assertThat(decision.outcome()).isEqualTo(ApprovalOutcome.DENIED);
				assertThat(decision.reason()).isEqualTo("the user declined");
			});
		assertThat(McpElicitationApprovalProvider.decision(new ElicitResult(Action.CANCEL, null), "c").outcome())
			.isEqualTo(ApprovalOutcome.DENIED);
	}

	@Test
	void callsThatDidNotComeOverMcpAreNotSupported() {
		McpElicitationApprovalProvider provider = new McpElicitationApprovalProvider(
				Executors.newSingleThreadExecutor());
		ToolInvocation javaCall = ToolInvocation.builder(ToolDescriptor.builder("delete_file").build()).build();
		assertThat(provider.supports(javaCall)).isFalse();
	}

	@Test
	void onARoundOf20260728WithoutTheAnswerTheQuestionIsTheInputRequestApprovalAndTheStageFailsWithInputRequired() {
		McpInputRound round = round(Map.of());
		McpElicitationApprovalProvider provider = new McpElicitationApprovalProvider(
				Executors.newSingleThreadExecutor());
		ToolInvocation call = statelessCall(round);
		assertThat(provider.supports(call)).isTrue();

		CompletableFuture<ApprovalDecision> asked = provider.requestApproval(request(), call).toCompletableFuture();

		assertThat(asked).isCompletedExceptionally();
		assertThat(asked.handle((decision, failure) -> failure)).succeedsWithin(java.time.Duration.ZERO)
			.isInstanceOf(ToolInputRequiredException.class);
		assertThat(round.inputRequests()).containsOnlyKeys("approval");
		Map<String, Object> question = round.inputRequests().get("approval");
		assertThat(question).containsEntry("method", "elicitation/create");
		assertThat(question.get("params").toString()).contains("delete_file").doesNotContain(McpInputRound.META_KEY);
	}

	@Test
	void onARoundOf20260728WithTheUsersAnswerTheDecisionIsTakenAtOnce() {
		McpInputRound round = round(
				Map.of("approval", Map.of("action", "accept", "content", Map.of("decision", "approve"))));
		McpElicitationApprovalProvider provider = new McpElicitationApprovalProvider(
				Executors.newSingleThreadExecutor());

		CompletableFuture<ApprovalDecision> asked = provider.requestApproval(request(), statelessCall(round))
			.toCompletableFuture();

		assertThat(asked).isCompletedWithValueMatching((decision) -> decision.outcome() == ApprovalOutcome.APPROVED
				&& decision.decidedBy().equals("mcp-client inspector"));
		assertThat(round.asked()).isFalse();
	}

	@Test
	void theClientsOwnNameReachesTheAuditOnOneLineAndShort() {
		McpInputRound round = round(
				Map.of("approval", Map.of("action", "accept", "content", Map.of("decision", "approve"))));
		McpElicitationApprovalProvider provider = new McpElicitationApprovalProvider(
				Executors.newSingleThreadExecutor());

		ApprovalDecision decision = provider
			.requestApproval(request(), statelessCall(round, "evil\nINFO forged line" + "x".repeat(100)))
			.toCompletableFuture()
			.join();

		assertThat(decision.decidedBy()).startsWith("mcp-client evil?INFO forged line")
			.doesNotContain("\n")
			.hasSize("mcp-client ".length() + 64 + 1);
	}

	private static McpInputRound round(Map<String, Object> answers) {
		return new McpInputRound("delete_file", McpSchema.ClientCapabilities.builder().elicitation().build(), answers);
	}

	// A tools/call of 2026-07-28 as StatelessMcpServer hands it to the tool's handler
	private static ToolInvocation statelessCall(McpInputRound round) {
		return statelessCall(round, "inspector");
	}

	private static ToolInvocation statelessCall(McpInputRound round, String clientName) {
		McpJsonMapper json = new JacksonMcpJsonMapper(JsonMapper.builder().build());
		McpTransportContext context = new McpRequestContext(null, null, null, null, null, null, true, round)
			.transportContext();
		McpSyncServerExchange exchange = new McpSyncServerExchange(
				new McpAsyncServerExchange(null, new StatelessMcpSession(json, null, null, round), round.capabilities(),
						new McpSchema.Implementation(clientName, "1"), context));
		return ToolInvocation.builder(ToolDescriptor.builder("delete_file").safety(SafetyLevel.DANGEROUS).build())
			.attribute(McpInvocationAttributes.EXCHANGE, exchange)
			.build();
	}

	private static ApprovalRequest request() {
		Instant now = Instant.parse("2026-07-28T10:00:00Z");
		return new ApprovalRequest("r1", "delete_file", SafetyLevel.DANGEROUS, "{\"path\":\"a\"}", "h", null, null,
				"delete_file {\"path\":\"a\"}", now, now.plusSeconds(60));
	}

}
