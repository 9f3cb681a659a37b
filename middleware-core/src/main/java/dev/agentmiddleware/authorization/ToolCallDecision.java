package dev.agentmiddleware.authorization;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link ToolCallDecider} decided about one call: allowed, or denied with the
 * reason the model (or MCP client) is told. <pre>{@code
 * return (amount > 1000) ? ToolCallDecision.deny("transfers over 1,000 need a second signature")
 *         : ToolCallDecision.allow();
 * }</pre>
 *
 * @param allowed whether the call may go on
 * @param reason why it is denied, in words a person and a model can act on; {@code null}
 * for an allowed call
 */
public record ToolCallDecision(boolean allowed, @Nullable String reason) {

	private static final ToolCallDecision ALLOW = new ToolCallDecision(true, null);

	/**
	 * Validates the decision.
	 * @throws IllegalArgumentException if a denial has no reason
	 */
	public ToolCallDecision {
		if (!allowed && (reason == null || reason.isBlank())) {
			throw new IllegalArgumentException("a denial needs a reason");
		}
	}

	/**
	 * The call may go on.
	 * @return the decision
	 */
	public static ToolCallDecision allow() {
		return ALLOW;
	}

	/**
	 * The call is refused.
	 * @param reason why, told to the model; never blank, and never the arguments' secrets
	 * @return the decision
	 */
	public static ToolCallDecision deny(String reason) {
		return new ToolCallDecision(false, reason);
	}

}
