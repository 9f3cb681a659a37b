package dev.agentmiddleware.authorization;

import java.util.List;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;

/**
 * The caller does not hold the authorities a tool requires, or is not authenticated; the tool did not run and
 * nobody was asked to approve it. Reported with the outcome {@link CallOutcome#FORBIDDEN}; never retried. The
 * message names the tool and the missing authorities, never the caller.
 * <pre>{@code
 * throw new ToolForbiddenException("delete_file", "authorization", List.of("SCOPE_files.write"), true);
 * // Tool 'delete_file' requires authority SCOPE_files.write, which the caller does not have.
 * }</pre>
 */
public class ToolForbiddenException extends ToolDeniedException {

	private final List<String> missingAuthorities;

	private final boolean authenticated;

	/**
	 * Creates the exception.
	 * @param toolName the tool that was refused
	 * @param decidedBy the middleware that refused it
	 * @param missingAuthorities the required authorities the caller does not hold, at least one
	 * @param authenticated whether the caller was authenticated
	 */
	public ToolForbiddenException(String toolName, String decidedBy, List<String> missingAuthorities,
			boolean authenticated) {
		super(toolName, decidedBy, reason(missingAuthorities, authenticated),
				"Tool '" + toolName + "' " + reason(missingAuthorities, authenticated) + ".");
		this.missingAuthorities = List.copyOf(missingAuthorities);
		this.authenticated = authenticated;
	}

	private static String reason(List<String> missing, boolean authenticated) {
		String authorities = ((missing.size() == 1) ? "authority " : "authorities ") + String.join(", ", missing);
		return authenticated ? "requires " + authorities + ", which the caller does not have"
				: "requires " + authorities + ", and the caller is not authenticated";
	}

	/**
	 * The required authorities the caller does not hold.
	 * @return the missing authorities
	 */
	public List<String> missingAuthorities() {
		return this.missingAuthorities;
	}

	/**
	 * Whether the caller was authenticated.
	 * @return {@code false} for a call without a principal
	 */
	public boolean authenticated() {
		return this.authenticated;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.FORBIDDEN;
	}

}
