package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;

/**
 * Finds the session and principal of a direct Java call of an {@code @AgentTool} method. Calls from Spring AI and
 * MCP carry their own; this one decides for Java callers. Replace the default ({@link #standard()}) with a bean of
 * this type.
 * <pre>{@code
 * @Bean
 * ToolCallSessionResolver toolCallSessionResolver(ConversationHolder conversations) {
 *     return () -> new ToolCallSession(conversations.currentId(), null);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ToolCallSessionResolver {

	/**
	 * The session of the call being made on the current thread.
	 * @return the session; {@link ToolCallSession#NONE} when there is none
	 */
	ToolCallSession resolve();

	/**
	 * The default: the innermost {@link ToolCallScope}; for what it leaves unset, the id of the current HTTP session
	 * (when Spring Web and a servlet request are present and the session already exists: it is never created) and
	 * Spring Security's authenticated principal, with its authorities ({@link ToolPrincipals#current()}).
	 * @return the resolver
	 */
	static ToolCallSessionResolver standard() {
		return StandardToolCallSessionResolver.INSTANCE;
	}

}
