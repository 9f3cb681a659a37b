package dev.agentmiddleware.approval;

import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Asks the first of several providers that {@link ApprovalProvider#supports supports} the call, in the given
 * order; when none does, the call is denied with "no approver is configured".
 * <pre>{@code
 * ApprovalProvider providers = new CompositeApprovalProvider(List.of(elicitation, queue));
 * }</pre>
 */
public final class CompositeApprovalProvider implements ApprovalProvider {

	private final List<ApprovalProvider> providers;

	/**
	 * Creates the composite.
	 * @param providers the providers, first choice first
	 */
	public CompositeApprovalProvider(List<? extends ApprovalProvider> providers) {
		this.providers = List.copyOf(providers);
	}

	/**
	 * The provider that handles a call.
	 * @param invocation the call
	 * @return the first provider that supports it, or the provider that denies every call because no approver is
	 * configured
	 */
	public ApprovalProvider select(ToolInvocation invocation) {
		for (ApprovalProvider provider : this.providers) {
			if (provider.supports(invocation)) {
				return provider;
			}
		}
		return NoApproverProvider.INSTANCE;
	}

	/**
	 * The providers, first choice first.
	 * @return the providers
	 */
	public List<ApprovalProvider> providers() {
		return this.providers;
	}

	@Override
	public String name() {
		return "composite";
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		return select(invocation).requestApproval(request, invocation);
	}

}
