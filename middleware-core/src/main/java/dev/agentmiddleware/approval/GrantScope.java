package dev.agentmiddleware.approval;

/**
 * What an approval for the session lets through without asking again.
 */
public enum GrantScope {

	/** Calls of the same tool with exactly the same arguments (compared by the hash of their canonical JSON). */
	ARGUMENTS,

	/** Every call of the same tool. */
	TOOL

}
