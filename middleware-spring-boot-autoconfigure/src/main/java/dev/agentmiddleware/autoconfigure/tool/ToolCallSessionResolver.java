package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Finds the session and principal of a direct Java call of an {@code @AgentTool} method.
 * Calls from Spring AI and MCP carry their own; this one decides for Java callers.
 * Replace the default ({@link #standard()}) with a bean of this type. <pre>{@code
 * &#64;Bean
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
	 * The default: the innermost {@link ToolCallScope}; for what it leaves unset, the id
	 * of the current HTTP session (when Spring Web and a servlet request are present and
	 * the session already exists: it is never created) and Spring Security's
	 * authenticated principal, with its authorities ({@link ToolPrincipals#current()}).
	 * @return the resolver
	 */
	static ToolCallSessionResolver standard() {
		return StandardToolCallSessionResolver.INSTANCE;
	}

	/**
	 * The session and principal a direct Java call of an {@code @AgentTool} method runs
	 * for: what a session-scoped cache, a per-session rate limit or a per-principal
	 * budget keys on.
	 *
	 * @param sessionId the session id, or {@code null} for none
	 * @param principal the principal (name and authorities), or {@code null} for none
	 */
	public record ToolCallSession(@Nullable String sessionId, @Nullable ToolPrincipal principal) {

		/** No session and no principal. */
		public static final ToolCallSession NONE = new ToolCallSession(null, null);

		/**
		 * The principal's name.
		 * @return the name, or {@code null} for no principal
		 */
		public @Nullable String principalName() {
			ToolPrincipal principal = this.principal;
			return (principal != null) ? principal.name() : null;
		}

	}

}
