package dev.agentmiddleware.approval;

/**
 * Your code decides approvals, as a bean, through {@link CallbackApprovalProvider}.
 * <pre>{@code
 * @Bean
 * ApprovalCallback onlyTempFiles() {
 *     return (request) -> request.arguments().contains("\"tmp/")
 *             ? ApprovalDecision.approve("temp-policy") : ApprovalDecision.deny("temp-policy", "only tmp/ files");
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ApprovalCallback {

	/**
	 * Decides one request. Runs on a thread of its own; a decision returned after the request expired applies to
	 * nothing, and an exception denies the call as a provider failure.
	 * @param request the request
	 * @return the decision
	 * @throws Exception if the callback cannot decide
	 */
	ApprovalDecision decide(ApprovalRequest request) throws Exception;

}
