package dev.agentmiddleware.approval;

/**
 * Told about every approval outcome right after it is written to the audit trail, for example to count outcomes
 * in metrics. Must be quick and must not throw; an exception is logged and ignored.
 */
@FunctionalInterface
public interface ApprovalAuditListener {

	/**
	 * Called once per outcome.
	 * @param record the audit record
	 */
	void onAudit(ApprovalAuditRecord record);

}
