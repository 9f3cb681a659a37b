package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Instant;

/**
 * The {@code requestState}s already used ({@link McpRequestStates}): a state is good for
 * one retry, so that a state seen once is refused when it comes again (a replay). An
 * entry is needed only until its state expires, after which the state is refused anyway.
 * Every instance that serves the same clients must see the same ledger for the refusal to
 * hold across instances.
 */
interface McpRequestStateLedger {

	/**
	 * Records that a state is used, unless it was already.
	 * @param stateId the state's id
	 * @param expiresAt when the state expires: the entry may be forgotten after it
	 * @return {@code true} if this is the state's first use, {@code false} if it was used
	 * before
	 */
	boolean consume(String stateId, Instant expiresAt);

}
