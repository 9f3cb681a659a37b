package dev.agentmiddleware.autoconfigure.authorization;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.authorization.AuthorizationRule;
import dev.agentmiddleware.authorization.AuthorizationRules;
import dev.agentmiddleware.authorization.ToolCallDecider;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of per-tool authorization: the authorities a caller must hold to call a
 * tool, on top of those the tool declares with {@code @AgentTool(authorities = ...)}.
 * Configuration adds authorities and never removes the declared ones: a tool requires
 * every authority it declares and every authority configured for it
 * ({@code tools.<name>.authorities}, else {@code defaults.authorities});
 * {@code enabled: false} on a tool's entry exempts it from the configured ones only.
 *
 * <p>
 * Rules on what a call may do ({@code deny-when}, {@code allow-when}): SpEL expressions
 * over {@code #args}, {@code #principal} and {@code #source}, each with the reason the
 * model is told, checked after the arguments are bound and before approval
 * ({@link AuthorizationRuleExpressions}). A tool's entry without rules of a kind takes
 * the defaults' of that kind. <pre>{@code
 * agent:
 *   middleware:
 *     authorization:
 *       defaults:
 *         authorities: [SCOPE_mcp.tools]
 *       tools:
 *         delete-file:
 *           authorities: [SCOPE_files.write]
 *           allow-when:
 *             - expression: "#args.path.startsWith('tmp/') and !#args.path.contains('..')"
 *               reason: "Files may be deleted under tmp/ only."
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

	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		checkRules(PREFIX + ".defaults", getDefaults());
		getTools().forEach((name, settings) -> checkRules(PREFIX + ".tools." + name, settings));
	}

	// Every expression parses and does only what a rule may, before any tool is known
	private static void checkRules(String property, Settings settings) {
		forEachRule(property + ".deny-when", settings.getDenyWhen(),
				(ruleProperty, rule) -> AuthorizationRuleExpressions.parse(ruleProperty + ".expression",
						String.valueOf(rule.getExpression())));
		forEachRule(property + ".allow-when", settings.getAllowWhen(),
				(ruleProperty, rule) -> AuthorizationRuleExpressions.parse(ruleProperty + ".expression",
						String.valueOf(rule.getExpression())));
	}

	// Each rule with its property, once its expression is known to be set; then its
	// reason must be
	private static void forEachRule(String property, @Nullable List<Rule> rules, BiConsumer<String, Rule> action) {
		if (rules == null) {
			return;
		}
		for (int i = 0; i < rules.size(); i++) {
			String ruleProperty = property + "[" + i + "]";
			Rule rule = rules.get(i);
			if (rule.getExpression() == null || rule.getExpression().isBlank()) {
				throw new InvalidToolConfigurationException(ruleProperty + ".expression", rule.getExpression(),
						"a rule needs an expression", "Set '" + ruleProperty + ".expression'.");
			}
			// The expression first: a wrong one is the likelier mistake, and the one to
			// report
			action.accept(ruleProperty, rule);
			if (rule.getReason() == null || rule.getReason().isBlank()) {
				throw new InvalidToolConfigurationException(ruleProperty + ".reason", rule.getReason(),
						"a rule needs the reason the model is told when it refuses a call",
						"Set '" + ruleProperty + ".reason'.");
			}
		}
	}

	/**
	 * The rules of a tool and the deciders that may apply to it: its entry's
	 * {@code deny-when} and {@code allow-when} (each kind, when the entry has none, the
	 * defaults'), compiled for the tool, denials first; none when its entry says
	 * {@code enabled: false}, or, for a tool not listed, when {@code defaults.enabled} is
	 * false.
	 * @param tool the tool
	 * @param deciders the external decision points
	 * @return the rules, or {@code null} when there is neither a rule nor a decider
	 * @throws InvalidToolConfigurationException naming the property of an expression that
	 * names no parameter of the tool, or is invalid
	 */
	public @Nullable AuthorizationRules rulesFor(ToolDescriptor tool, List<ToolCallDecider> deciders) {
		List<AuthorizationRule> rules = new ArrayList<>();
		String key = PerToolSettings.keyOf(getTools(), tool.name());
		Settings own = (key != null) ? getTools().get(key) : null;
		Settings defaults = getDefaults();
		boolean exempt = (own != null) ? Boolean.FALSE.equals(own.getEnabled())
				: Boolean.FALSE.equals(defaults.getEnabled());
		if (!exempt) {
			String ownProperty = PREFIX + ".tools." + key;
			String defaultsProperty = PREFIX + ".defaults";
			boolean ownDenials = own != null && own.getDenyWhen() != null;
			boolean ownAllowances = own != null && own.getAllowWhen() != null;
			compile(rules, (ownDenials ? ownProperty : defaultsProperty) + ".deny-when",
					AuthorizationRule.Effect.DENY_WHEN, ownDenials ? own.getDenyWhen() : defaults.getDenyWhen(), tool);
			compile(rules, (ownAllowances ? ownProperty : defaultsProperty) + ".allow-when",
					AuthorizationRule.Effect.ALLOW_WHEN, ownAllowances ? own.getAllowWhen() : defaults.getAllowWhen(),
					tool);
		}
		return (rules.isEmpty() && deciders.isEmpty()) ? null : new AuthorizationRules(rules, deciders);
	}

	private static void compile(List<AuthorizationRule> compiled, String property, AuthorizationRule.Effect effect,
			@Nullable List<Rule> rules, ToolDescriptor tool) {
		forEachRule(property, rules,
				(ruleProperty, rule) -> compiled.add(AuthorizationRuleExpressions.compile(ruleProperty, effect,
						String.valueOf(rule.getExpression()), String.valueOf(rule.getReason()), tool)));
	}

	/**
	 * The policy of a tool: every authority it declares and every authority configured
	 * for it.
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
	 * <p>
	 * {@code enabled}: Whether the configured authorities apply: under 'defaults', to
	 * every tool not listed (not set: all); under 'tools', to that tool (not set: true).
	 * The authorities a tool declares always apply.
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Authorities a caller must hold, all of them, to call the tool, such as
		 * SCOPE_files.write or ROLE_ADMIN; added to those the tool declares
		 * with @AgentTool(authorities).
		 */
		private @Nullable List<String> authorities;

		/**
		 * Rules that refuse a call when their expression is true, each with the reason
		 * the model is told; checked after the arguments are bound and before approval.
		 * Not set under 'tools': the defaults'.
		 */
		private @Nullable List<Rule> denyWhen;

		/**
		 * Rules that refuse a call when their expression is false, each with the reason
		 * the model is told; checked after the arguments are bound and before approval.
		 * Not set under 'tools': the defaults'.
		 */
		private @Nullable List<Rule> allowWhen;

		public @Nullable List<String> getAuthorities() {
			return this.authorities;
		}

		public void setAuthorities(@Nullable List<String> authorities) {
			this.authorities = authorities;
		}

		public @Nullable List<Rule> getDenyWhen() {
			return this.denyWhen;
		}

		public void setDenyWhen(@Nullable List<Rule> denyWhen) {
			this.denyWhen = denyWhen;
		}

		public @Nullable List<Rule> getAllowWhen() {
			return this.allowWhen;
		}

		public void setAllowWhen(@Nullable List<Rule> allowWhen) {
			this.allowWhen = allowWhen;
		}

	}

	/**
	 * One rule: a SpEL expression over #args, #principal and #source, and the reason the
	 * model is told when the rule refuses a call.
	 */
	public static class Rule {

		/**
		 * SpEL expression over #args (the bound arguments by parameter name), #principal
		 * (name, authorities, authenticated) and #source (JAVA, SPRING_AI, MCP or OTHER),
		 * such as "#args.amount > 1000".
		 */
		private @Nullable String expression;

		/**
		 * What the model is told when the rule refuses a call.
		 */
		private @Nullable String reason;

		public @Nullable String getExpression() {
			return this.expression;
		}

		public void setExpression(@Nullable String expression) {
			this.expression = expression;
		}

		public @Nullable String getReason() {
			return this.reason;
		}

		public void setReason(@Nullable String reason) {
			this.reason = reason;
		}

	}

}
