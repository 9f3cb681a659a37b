package dev.agentmiddleware.approval;

import java.util.concurrent.CompletionStage;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Asks someone to decide an {@link ApprovalRequest}: a queue that people decide through a REST API or a web
 * console, the MCP client's user through elicitation, or your own code.
 *
 * <p>{@link #requestApproval} must not block: it starts asking and returns a stage that completes with the
 * decision (or exceptionally, which denies the call as a provider failure). The middleware waits at most until
 * the request {@link ApprovalRequest#expiresAt() expires}; a decision that completes later applies to nothing.
 * A provider may also never complete the stage and let the decision arrive through the {@link ApprovalStore}
 * instead, as the queue does. Providers are called concurrently, once per waiting call.
 * <pre>{@code
 * final class SlackApprovalProvider implements ApprovalProvider {
 *     public String name() { return "slack"; }
 *     public boolean supports(ToolInvocation invocation) { return invocation.principal() != null; }
 *     public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
 *         return slack.ask(request.summary()).thenApply((answer) -> answer.yes()
 *                 ? ApprovalDecision.approve(answer.user()) : ApprovalDecision.deny(answer.user(), answer.text()));
 *     }
 * }
 * }</pre>
 */
public interface ApprovalProvider {

	/**
	 * The provider's name, used to order providers in configuration and in messages, such as {@code queue}.
	 * @return the name
	 */
	String name();

	/**
	 * Whether this provider can ask about this call; the {@link CompositeApprovalProvider} uses the first provider
	 * that can.
	 * @param invocation the call
	 * @return {@code true} if it can
	 */
	default boolean supports(ToolInvocation invocation) {
		return true;
	}

	/**
	 * Starts asking for a decision.
	 * @param request the request, already saved in the store
	 * @param invocation the waiting call, for providers that talk back to its caller
	 * @return the decision, when it comes
	 */
	CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation);

}
