package dev.agentmiddleware.authorization;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;

/**
 * An external decision point for tool calls (a policy engine such as OPA or Cedar, a
 * service of your own): decides whether one call may go on from what the configured rules
 * see, the {@linkplain ToolInvocation#tool() tool}, its
 * {@linkplain ToolInvocation#arguments() bound arguments}, the
 * {@linkplain ToolInvocation#principal() caller} and the
 * {@linkplain ToolInvocation#source() source}. In a Spring application every bean of this
 * type is asked, in bean order, for every call of every tool it {@linkplain #appliesTo
 * applies to}.
 *
 * <p>
 * It is asked by the {@link AuthorizationRulesMiddleware}: after the arguments are bound
 * and after the configured {@link AuthorizationRule rules} allowed the call, before
 * anyone is asked to approve it, so a call it denies never reaches a person. It runs on
 * the caller's thread, so it must answer promptly: bound a remote call with a timeout of
 * your own. It fails closed: an exception or a {@code null} decision denies the call with
 * a generic reason (logged at WARN without the arguments), as does a denial, with its own
 * reason. <pre>{@code
 * &#64;Bean
 * ToolCallDecider transferLimits() {
 *     return (call) -> {
 *         Object amount = call.argument("amount");
 *         boolean admin = call.principal() != null && call.principal().hasAuthority("ROLE_ADMIN");
 *         return (amount instanceof Number number && number.longValue() > 1000 && !admin)
 *                 ? ToolCallDecision.deny("Only an admin may transfer more than 1,000.") : ToolCallDecision.allow();
 *     };
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ToolCallDecider {

	/**
	 * Decides one call.
	 * @param call the call, its arguments bound
	 * @return the decision; {@code null} counts as a denial
	 * @throws Exception any failure, which denies the call
	 */
	ToolCallDecision decide(ToolInvocation call) throws Exception;

	/**
	 * Whether this decider is asked about the calls of a tool at all; decided once per
	 * tool, when its pipeline is built. A tool no decider and no rule applies to does not
	 * have the layer in its chain.
	 * @param tool the tool
	 * @return {@code true} (the default) to be asked about every call of the tool
	 */
	default boolean appliesTo(ToolDescriptor tool) {
		return true;
	}

}
