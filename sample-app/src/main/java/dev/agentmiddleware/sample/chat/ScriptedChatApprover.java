package dev.agentmiddleware.sample.chat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolInvocation;

/**
 * The approver of the scripted {@code /chat} demo: nobody sits at the console while the
 * scripted model replays its conversation, so this stand-in answers the approval requests
 * of {@code ChatClient} calls at once, always with a denial, to show what a model gets
 * when a person says no. It exists only with the scripted model; MCP calls and real-model
 * conversations still wait for the approval console (or MCP elicitation).
 */
final class ScriptedChatApprover implements ApprovalProvider {

	static final String NAME = "scripted-chat";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean supports(ToolInvocation invocation) {
		return invocation.source() == InvocationSource.SPRING_AI;
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		return CompletableFuture.completedFuture(ApprovalDecision.deny("scripted-demo-approver",
				"the scripted demo never deletes files; over MCP, delete_file waits for a person in the console"));
	}

}
