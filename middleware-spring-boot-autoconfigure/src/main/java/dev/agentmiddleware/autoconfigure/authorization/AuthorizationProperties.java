package dev.agentmiddleware.autoconfigure.authorization;

import java.util.List;
import java.util.Set;

import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of per-tool authorization: the authorities a caller must hold to call a tool, on top of those the
 * tool declares with {@code @AgentTool(authorities = ...)}. Configuration adds authorities and never removes the
 * declared ones: a tool requires every authority it declares and every authority configured for it
 * ({@code tools.<name>.authorities}, else {@code defaults.authorities}); {@code enabled: false} on a tool's entry
 * exempts it from the configured ones only.
 * <pre>{@code
 * agent:
 *   middleware:
 *     authorization:
 *       defaults:
 *         authorities: [SCOPE_mcp.tools]
 *       tools:
 *         delete-file:
 *           authorities: [SCOPE_files.write]
 * }</pre>
 */
@ConfigurationProperties(prefix = AuthorizationProperties.PREFIX, ignoreUnknownFields = false)
class AuthorizationProperties extends ToolMiddlewareProperties<AuthorizationProperties.Settings, AuthorizationPolicy> {

	/** The prefix of the authorization properties. */
	public static final String PREFIX = "agent.middleware.authorization";

	public AuthorizationProperties() {
		super(PREFIX, BuiltInOrder.AUTHORIZATION, new Settings());
	}

	// The defaults' authorities, when set, are required of every tool not listed.
	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	@Override
	protected @Nullable AuthorizationPolicy createPolicy(Settings settings) {
		List<String> authorities = settings.getAuthorities();
		return (authorities != null && !authorities.isEmpty()) ? new AuthorizationPolicy(Set.copyOf(authorities))
				: null;
	}

	/**
	 * The policy of a tool: every authority it declares and every authority configured for it.
	 * @param tool the tool
	 * @return the policy, or {@code null} when the tool requires no authority
	 */
	@Override
	public @Nullable AuthorizationPolicy policyFor(ToolDescriptor tool) {
		AuthorizationPolicy configured = super.policyFor(tool);
		return AuthorizationPolicy.ofAll(tool.authorities(),
				(configured != null) ? configured.requiredAuthorities() : Set.of());
	}

	/**
	 * The authorities required of a tool, or of every tool in {@code defaults}.
	 *
	 * <p>{@code enabled}: Whether the configured authorities apply: under 'defaults', to every tool not listed (not
	 * set: all); under 'tools', to that tool (not set: true). The authorities a tool declares always apply.
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Authorities a caller must hold, all of them, to call the tool, such as SCOPE_files.write or ROLE_ADMIN;
		 * added to those the tool declares with @AgentTool(authorities).
		 */
		private @Nullable List<String> authorities;

		public @Nullable List<String> getAuthorities() {
			return this.authorities;
		}

		public void setAuthorities(@Nullable List<String> authorities) {
			this.authorities = authorities;
		}

	}

}
