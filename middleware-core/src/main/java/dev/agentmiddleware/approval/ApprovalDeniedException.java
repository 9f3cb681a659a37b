package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;

/**
 * A call that approval did not let through: a person denied it, nobody decided in time,
 * no approver is configured, or the provider failed. The message says which, in words a
 * model can act on; it never holds argument values or a stack trace.
 */
public class ApprovalDeniedException extends ToolDeniedException {

	private final ApprovalOutcome approvalOutcome;

	/**
	 * Creates the exception.
	 * @param toolName the tool
	 * @param decidedBy the middleware name
	 * @param approvalOutcome why the call did not run
	 * @param reason the model-facing reason
	 */
	public ApprovalDeniedException(String toolName, String decidedBy, ApprovalOutcome approvalOutcome, String reason) {
		super(toolName, decidedBy, reason);
		this.approvalOutcome = approvalOutcome;
	}

	/**
	 * Why the call did not run.
	 * @return the approval outcome
	 */
	public ApprovalOutcome approvalOutcome() {
		return this.approvalOutcome;
	}

}
