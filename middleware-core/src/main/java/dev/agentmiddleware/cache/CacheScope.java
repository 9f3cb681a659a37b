package dev.agentmiddleware.cache;

/**
 * Who shares the cached results of a tool.
 * <pre>{@code
 * CachePolicy perUser = new CachePolicy(Duration.ofMinutes(10), 500, CacheScope.PRINCIPAL);
 * }</pre>
 */
public enum CacheScope {

	/**
	 * Each session (conversation, thread, MCP session) has its own entries; the safe default. A call without a
	 * session id is not cached.
	 */
	SESSION,

	/**
	 * Each principal has its own entries, shared by all of its sessions. A call without a principal is not cached.
	 */
	PRINCIPAL,

	/**
	 * One set of entries for every caller. Only for results that do not depend on who asks.
	 */
	GLOBAL

}
