package dev.agentmiddleware.authorization;

import java.util.List;

/**
 * What the {@link AuthorizationRulesMiddleware} checks for one tool: its rules, in order,
 * then the external deciders that apply to it. <pre>{@code
 * AuthorizationRules rules = new AuthorizationRules(List.of(tmpOnly), List.of());
 * }</pre>
 *
 * @param rules the rules, evaluated in order; the first that refuses decides
 * @param deciders the external decision points asked when every rule allowed the call, in
 * order
 */
public record AuthorizationRules(List<AuthorizationRule> rules, List<ToolCallDecider> deciders) {

	/**
	 * Validates the rules.
	 * @throws IllegalArgumentException if there is neither a rule nor a decider
	 */
	public AuthorizationRules {
		rules = List.copyOf(rules);
		deciders = List.copyOf(deciders);
		if (rules.isEmpty() && deciders.isEmpty()) {
			throw new IllegalArgumentException("rules need at least one rule or decider");
		}
	}

}
