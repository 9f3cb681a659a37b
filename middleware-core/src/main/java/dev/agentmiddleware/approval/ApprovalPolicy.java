package dev.agentmiddleware.approval;

/**
 * The approval policy of one tool: the value
 * {@code ApprovalMiddleware.builder().policies(fn)}'s function gives a tool whose calls
 * wait for a person's decision, {@code null} for a tool that needs none (the middleware
 * then stays out of its chain). Needing approval is the whole per-tool policy today (the
 * timeout, grant life and deny-repeat window are the middleware's, one for all tools), so
 * that approval takes a policy function like every other built-in; {@link ApprovalRules}
 * is the function that decides by safety level and lists. <pre>{@code
 * ApprovalMiddleware.builder()
 *     .policies((tool) -> tool.name().equals("delete_file") ? ApprovalPolicy.REQUIRED : null)
 *     .build();
 * }</pre>
 */
public enum ApprovalPolicy {

	/**
	 * Every call of the tool needs a person's decision, unless a session grant covers it.
	 */
	REQUIRED

}
