package dev.agentmiddleware.authorization;

import java.util.Objects;
import java.util.function.Predicate;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * One rule on what a call of a tool may do: a condition over the call (its bound
 * arguments, its caller, its source) and the reason the model is told when the rule
 * refuses the call. A {@link Effect#DENY_WHEN deny-when} rule refuses a call its
 * condition holds for; an {@link Effect#ALLOW_WHEN allow-when} rule refuses a call its
 * condition does not hold for. In a Spring application the rules are SpEL expressions
 * configured per tool under {@code agent.middleware.authorization.tools.<tool>}; in plain
 * Java any predicate serves. <pre>{@code
 * AuthorizationRule tmpOnly = AuthorizationRule.allowWhen("delete_file tmp only",
 *         (call) -> String.valueOf(call.argument("path")).startsWith("tmp/"),
 *         "Files may be deleted under tmp/ only.");
 * }</pre>
 *
 * @param name what the rule is called in logs, such as the property it was configured
 * with; never its arguments
 * @param effect whether the condition allows or denies
 * @param condition the condition; a condition that throws refuses the call (fail closed)
 * @param reason why a refused call is refused, told to the model
 * @param readsArguments whether the condition reads the call's arguments: a rule that
 * does not can decide, from the caller and the source alone, that a tool is never
 * callable, and so hide it from the caller's list of tools
 */
public record AuthorizationRule(String name, Effect effect, Predicate<ToolInvocation> condition, String reason,
		boolean readsArguments) {

	/**
	 * Validates the rule.
	 * @throws IllegalArgumentException if the name or the reason is blank
	 */
	public AuthorizationRule {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(effect, "effect");
		Objects.requireNonNull(condition, "condition");
		Objects.requireNonNull(reason, "reason");
		if (name.isBlank() || reason.isBlank()) {
			throw new IllegalArgumentException("a rule needs a name and a reason");
		}
	}

	/**
	 * A rule that refuses the calls its condition holds for, assumed to read the
	 * arguments.
	 * @param name the rule's name in logs
	 * @param condition the condition
	 * @param reason why a refused call is refused
	 * @return the rule
	 */
	public static AuthorizationRule denyWhen(String name, Predicate<ToolInvocation> condition, String reason) {
		return new AuthorizationRule(name, Effect.DENY_WHEN, condition, reason, true);
	}

	/**
	 * A rule that refuses the calls its condition does not hold for, assumed to read the
	 * arguments.
	 * @param name the rule's name in logs
	 * @param condition the condition
	 * @param reason why a refused call is refused
	 * @return the rule
	 */
	public static AuthorizationRule allowWhen(String name, Predicate<ToolInvocation> condition, String reason) {
		return new AuthorizationRule(name, Effect.ALLOW_WHEN, condition, reason, true);
	}

	/**
	 * Whether the rule refuses a call.
	 * @param call the call
	 * @return {@code true} if the rule refuses it
	 * @throws RuntimeException what the condition threw, which the caller treats as a
	 * refusal
	 */
	public boolean refuses(ToolInvocation call) {
		boolean holds = this.condition.test(call);
		return (this.effect == Effect.DENY_WHEN) == holds;
	}

	/**
	 * How a rule's condition decides.
	 */
	public enum Effect {

		/** The call may go on only when the condition holds. */
		ALLOW_WHEN,

		/** The call is refused when the condition holds. */
		DENY_WHEN

	}

}
