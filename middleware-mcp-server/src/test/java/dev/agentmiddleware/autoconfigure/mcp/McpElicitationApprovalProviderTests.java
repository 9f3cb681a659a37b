package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;
import java.util.concurrent.Executors;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult.Action;
import org.junit.jupiter.api.Test;

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

}
