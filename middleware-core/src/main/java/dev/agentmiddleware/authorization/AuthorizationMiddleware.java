package dev.agentmiddleware.authorization;

import java.util.Set;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import java.util.List;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;

/**
 * Lets a tool run only for a caller that holds the authorities the tool requires: the
 * {@link ToolInvocation#principal() principal} of the call must hold every authority of
 * the tool's {@link AuthorizationPolicy}. A call without them, or without a principal at
 * all (fail closed), does not run the tool: it fails with a
 * {@link ToolForbiddenException} (outcome {@code forbidden}) naming the tool and the
 * missing authorities, before anyone is asked to approve it and before a cache answers or
 * a rate-limit permit is spent ({@link BuiltInOrder#AUTHORIZATION}).
 *
 * <p>
 * Applies only to the tools its policy function gives a policy for; for the others
 * {@link #wrap} returns {@code next} and the middleware costs nothing per call. By
 * default the policy of a tool is what its descriptor declares
 * ({@link ToolDescriptor#authorities()}). <pre>{@code
 * AuthorizationMiddleware authorization = AuthorizationMiddleware.builder()
 *     .policies((tool) -> tool.name().equals("delete_file") ? AuthorizationPolicy.of("SCOPE_files.write") : null)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(deleteFile, authorization);
 * pipeline.call(ToolInvocation.builder(deleteFile).principal(ToolPrincipal.of("bob", Set.of())).build());
 * // ToolForbiddenException: Tool 'delete_file' requires authority SCOPE_files.write, which the caller does not have.
 * }</pre>
 */
public final class AuthorizationMiddleware extends BuiltInMiddleware<AuthorizationPolicy> {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "authorization";

	private AuthorizationMiddleware(Builder builder) {
		super(NAME, builder);
	}

	/**
	 * Starts an authorization middleware whose policy of each tool is, until changed,
	 * what its descriptor declares (a tool that declares no authorities requires
	 * nothing), with order {@link BuiltInOrder#AUTHORIZATION}. The policy function is
	 * also called when a caller's tools are listed ({@link #permits}).
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, AuthorizationPolicy policy, ToolHandler next) {
		return new AuthorizedHandler(tool.name(), policy, next);
	}

	/**
	 * Whether a caller may call a tool: what a caller's list of tools shows, decided by
	 * the same policy as its calls.
	 * @param tool the tool
	 * @param principal the caller, or {@code null} when it is not authenticated
	 * @return {@code true} when the tool requires nothing, or the caller holds every
	 * authority it requires
	 */
	public boolean permits(ToolDescriptor tool, @Nullable ToolPrincipal principal) {
		AuthorizationPolicy policy = policyOf(tool);
		return policy == null || policy.permits(principal);
	}

	/**
	 * The handler of one guarded tool.
	 */
	private static final class AuthorizedHandler implements ToolHandler {

		private final String toolName;

		private final AuthorizationPolicy policy;

		// Checked one by one: a loop over an array allocates nothing per call, where
		// containsAll takes an iterator
		private final String[] required;

		private final ToolHandler next;

		AuthorizedHandler(String toolName, AuthorizationPolicy policy, ToolHandler next) {
			this.toolName = toolName;
			this.policy = policy;
			this.required = policy.requiredAuthorities().toArray(String[]::new);
			this.next = next;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			ToolPrincipal principal = invocation.principal();
			if (!holdsAll(principal)) {
				// The exception is the decision: observers, logs and metrics see
				// FORBIDDEN by "authorization".
				throw new ToolForbiddenException(this.toolName, NAME, this.policy.missing(principal),
						principal != null);
			}
			return this.next.handle(invocation);
		}

		private boolean holdsAll(@Nullable ToolPrincipal principal) {
			if (principal == null) {
				return false;
			}
			for (String authority : this.required) {
				if (!principal.hasAuthority(authority)) {
					return false;
				}
			}
			return true;
		}

	}

	/**
	 * Builds an {@link AuthorizationMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<AuthorizationPolicy, Builder> {

		private Builder() {
			super((tool) -> AuthorizationPolicy.ofAll(tool.authorities(), Set.of()), BuiltInOrder.AUTHORIZATION);
		}

		@Override
		public AuthorizationMiddleware build() {
			return new AuthorizationMiddleware(this);
		}

	}

	/**
	 * The caller does not hold the authorities a tool requires, is not authenticated, or
	 * an authorization rule refuses the call ({@link AuthorizationRulesMiddleware}); the
	 * tool did not run and nobody was asked to approve it. Reported with the outcome
	 * {@link CallOutcome#FORBIDDEN}; never retried. The message names the tool and the
	 * missing authorities or the rule's reason, never the caller. <pre>{@code
	 * throw new ToolForbiddenException("delete_file", "authorization", List.of("SCOPE_files.write"), true);
	 * // Tool 'delete_file' requires authority SCOPE_files.write, which the caller does not have.
	 * throw new ToolForbiddenException("delete_file", "authorization-rules", "Files may be deleted under tmp/ only.", true);
	 * // Call of tool 'delete_file' is forbidden: Files may be deleted under tmp/ only.
	 * }</pre>
	 */
	public static class ToolForbiddenException extends ToolDeniedException {

		private final List<String> missingAuthorities;

		private final boolean authenticated;

		/**
		 * Creates the exception.
		 * @param toolName the tool that was refused
		 * @param decidedBy the middleware that refused it
		 * @param missingAuthorities the required authorities the caller does not hold, at
		 * least one
		 * @param authenticated whether the caller was authenticated
		 */
		public ToolForbiddenException(String toolName, String decidedBy, List<String> missingAuthorities,
				boolean authenticated) {
			super(toolName, decidedBy, reason(missingAuthorities, authenticated),
					"Tool '" + toolName + "' " + reason(missingAuthorities, authenticated) + ".");
			this.missingAuthorities = List.copyOf(missingAuthorities);
			this.authenticated = authenticated;
		}

		/**
		 * Creates the exception for a call an authorization rule refuses, whatever the
		 * caller's authorities.
		 * @param toolName the tool that was refused
		 * @param decidedBy the middleware that refused it
		 * @param reason why, as the rule states it; told to the model
		 * @param authenticated whether the caller was authenticated
		 */
		public ToolForbiddenException(String toolName, String decidedBy, String reason, boolean authenticated) {
			super(toolName, decidedBy, reason, "Call of tool '" + toolName + "' is forbidden: " + reason);
			this.missingAuthorities = List.of();
			this.authenticated = authenticated;
		}

		private static String reason(List<String> missing, boolean authenticated) {
			String authorities = ((missing.size() == 1) ? "authority " : "authorities ") + String.join(", ", missing);
			return authenticated ? "requires " + authorities + ", which the caller does not have"
					: "requires " + authorities + ", and the caller is not authenticated";
		}

		/**
		 * The required authorities the caller does not hold.
		 * @return the missing authorities; none when a rule refused the call
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

}
