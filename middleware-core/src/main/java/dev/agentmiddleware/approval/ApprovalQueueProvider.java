package dev.agentmiddleware.approval;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * The in-app approval queue: the request waits in the {@link ApprovalStore}, where people see it (REST API, web
 * console) and decide it with {@link ApprovalStore#decide}; the decision reaches the waiting call through the
 * store, on this application instance or on any other that shares the store.
 */
public final class ApprovalQueueProvider implements ApprovalProvider {

	@Override
	public String name() {
		return "queue";
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		// The decision comes through the store, not through this stage.
		return new CompletableFuture<>();
	}

}
