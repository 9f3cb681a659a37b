package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * The session and principal a direct Java call of an {@code @AgentTool} method runs for: what a session-scoped
 * cache, a per-session rate limit or a per-principal budget keys on.
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
