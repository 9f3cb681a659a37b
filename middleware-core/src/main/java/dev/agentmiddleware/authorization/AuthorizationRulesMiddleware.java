package dev.agentmiddleware.authorization;

import java.util.List;

import dev.agentmiddleware.authorization.AuthorizationMiddleware.ToolForbiddenException;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a call of a tool go on only when the tool's {@link AuthorizationRules} allow it:
 * each {@link AuthorizationRule} in order (the first that refuses decides, with its
 * reason), then each {@link ToolCallDecider} that applies to the tool. A refused call
 * does not run the tool: it fails with a {@link ToolForbiddenException} (outcome
 * {@code forbidden}, decided by {@value #NAME}) whose reason is what the model is told.
 *
 * <p>
 * Runs at {@link BuiltInOrder#AUTHORIZATION_RULES}: after the arguments are bound, so
 * rules see them as the tool would, and before approval, so a call the rules refuse never
 * reaches a person, never answers from a cache and spends no rate-limit permit. Fails
 * closed: a rule whose condition throws and a decider that throws or answers {@code null}
 * refuse the call with a generic reason, logged at WARN naming the rule and the exception
 * type, never the arguments.
 *
 * <p>
 * Applies only to the tools its policy function gives rules for; for the others
 * {@link #wrap} returns {@code next} and the middleware costs nothing per call.
 * <pre>{@code
 * AuthorizationRulesMiddleware rules = AuthorizationRulesMiddleware.builder()
 *     .policies((tool) -> tool.name().equals("delete_file") ? new AuthorizationRules(List.of(tmpOnly), List.of()) : null)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(deleteFile, rules);
 * pipeline.call(ToolInvocation.builder(deleteFile).argument("path", "etc/passwd").build());
 * // ToolForbiddenException: Call of tool 'delete_file' is forbidden: Files may be deleted under tmp/ only.
 * }</pre>
 */
public final class AuthorizationRulesMiddleware extends BuiltInMiddleware<AuthorizationRules> {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "authorization-rules";

	/** The reason given when a rule could not be evaluated for a call. */
	public static final String RULE_FAILED_REASON = "its authorization rules could not be evaluated for this call";

	/** The reason given when an external decision point failed. */
	public static final String DECIDER_FAILED_REASON = "the authorization decision point could not decide this call";

	private static final Logger logger = LoggerFactory.getLogger(AuthorizationRulesMiddleware.class);

	private AuthorizationRulesMiddleware(Builder builder) {
		super(NAME, builder);
	}

	/**
	 * Starts a rules middleware that applies to no tool until {@link Builder#policies
	 * policies(fn)} says otherwise, with order {@link BuiltInOrder#AUTHORIZATION_RULES}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, AuthorizationRules policy, ToolHandler next) {
		List<ToolCallDecider> deciders = policy.deciders()
			.stream()
			.filter((decider) -> decider.appliesTo(tool))
			.toList();
		if (policy.rules().isEmpty() && deciders.isEmpty()) {
			return next;
		}
		return new RulesHandler(tool.name(), policy.rules().toArray(AuthorizationRule[]::new),
				deciders.toArray(ToolCallDecider[]::new), next);
	}

	/**
	 * Whether a caller may ever call a tool from a source, as far as the rules that read
	 * no arguments tell: what its list of tools shows. Rules over arguments, and
	 * deciders, cannot hide a tool; they refuse its calls.
	 * @param tool the tool
	 * @param principal the caller, or {@code null} when it is not authenticated
	 * @param source where the caller's calls come from
	 * @return {@code false} when a rule that reads no arguments refuses every call of
	 * this caller, or cannot be evaluated for it
	 */
	public boolean permits(ToolDescriptor tool, @Nullable ToolPrincipal principal, InvocationSource source) {
		AuthorizationRules policy = policyOf(tool);
		if (policy == null) {
			return true;
		}
		ToolInvocation probe = null;
		for (AuthorizationRule rule : policy.rules()) {
			if (rule.readsArguments()) {
				continue;
			}
			if (probe == null) {
				probe = ToolInvocation.builder(tool).principal(principal).source(source).build();
			}
			try {
				if (rule.refuses(probe)) {
					return false;
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Authorization rule {} of tool '{}' could not be evaluated for a list of tools ({}); the "
						+ "tool is not offered", rule.name(), tool.name(), ex.getClass().getName());
				return false;
			}
		}
		return true;
	}

	/**
	 * The handler of one guarded tool.
	 */
	private static final class RulesHandler implements ToolHandler {

		private final String toolName;

		private final AuthorizationRule[] rules;

		private final ToolCallDecider[] deciders;

		private final ToolHandler next;

		RulesHandler(String toolName, AuthorizationRule[] rules, ToolCallDecider[] deciders, ToolHandler next) {
			this.toolName = toolName;
			this.rules = rules;
			this.deciders = deciders;
			this.next = next;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			for (AuthorizationRule rule : this.rules) {
				boolean refuses;
				try {
					refuses = rule.refuses(invocation);
				}
				catch (RuntimeException ex) {
					// The exception's message may quote an argument: only its type is
					// logged
					logger.warn("Authorization rule {} of tool '{}' could not be evaluated ({}); the call is denied",
							rule.name(), this.toolName, ex.getClass().getName());
					throw forbidden(invocation, RULE_FAILED_REASON);
				}
				if (refuses) {
					throw forbidden(invocation, rule.reason());
				}
			}
			for (ToolCallDecider decider : this.deciders) {
				ToolCallDecision decision = decide(decider, invocation);
				if (!decision.allowed()) {
					throw forbidden(invocation, String.valueOf(decision.reason()));
				}
			}
			return this.next.handle(invocation);
		}

		private ToolCallDecision decide(ToolCallDecider decider, ToolInvocation invocation) {
			ToolCallDecision decision;
			try {
				decision = decider.decide(invocation);
			}
			catch (Exception ex) {
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				logger.warn("Authorization decider {} failed for a call of tool '{}' ({}); the call is denied",
						decider.getClass().getName(), this.toolName, ex.getClass().getName());
				return ToolCallDecision.deny(DECIDER_FAILED_REASON);
			}
			if (decision == null) {
				logger.warn("Authorization decider {} gave no decision for a call of tool '{}'; the call is denied",
						decider.getClass().getName(), this.toolName);
				return ToolCallDecision.deny(DECIDER_FAILED_REASON);
			}
			return decision;
		}

		private ToolForbiddenException forbidden(ToolInvocation invocation, String reason) {
			return new ToolForbiddenException(this.toolName, NAME, reason, invocation.principal() != null);
		}

	}

	/**
	 * Builds an {@link AuthorizationRulesMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<AuthorizationRules, Builder> {

		private Builder() {
			super((tool) -> null, BuiltInOrder.AUTHORIZATION_RULES);
		}

		@Override
		public AuthorizationRulesMiddleware build() {
			return new AuthorizationRulesMiddleware(this);
		}

	}

}
