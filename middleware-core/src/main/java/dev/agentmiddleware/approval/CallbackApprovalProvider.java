package dev.agentmiddleware.approval;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Lets an {@link ApprovalCallback} decide, on the given executor, so that a slow callback never holds the waiting
 * call past its timeout.
 * <pre>{@code
 * ApprovalProvider provider = new CallbackApprovalProvider(callback, executor);
 * }</pre>
 */
public final class CallbackApprovalProvider implements ApprovalProvider {

	private final ApprovalCallback callback;

	private final Executor executor;

	/**
	 * Creates the provider.
	 * @param callback decides
	 * @param executor runs the callback
	 */
	public CallbackApprovalProvider(ApprovalCallback callback, Executor executor) {
		this.callback = Objects.requireNonNull(callback, "callback");
		this.executor = Objects.requireNonNull(executor, "executor");
	}

	@Override
	public String name() {
		return "callback";
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return Objects.requireNonNull(this.callback.decide(request), "approval callback returned null");
			}
			catch (Exception ex) {
				throw new CompletionException(ex);
			}
		}, this.executor);
	}

}
