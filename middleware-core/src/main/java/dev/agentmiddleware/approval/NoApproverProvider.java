package dev.agentmiddleware.approval;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * The provider used when no other is configured: it denies every call with "no approver
 * is configured", so that a gated tool never runs unapproved.
 */
final class NoApproverProvider implements ApprovalProvider {

	/** The one instance. */
	public static final NoApproverProvider INSTANCE = new NoApproverProvider();

	private NoApproverProvider() {
	}

	@Override
	public String name() {
		return "none";
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		return CompletableFuture.completedFuture(ApprovalDecision.noApprover());
	}

}
