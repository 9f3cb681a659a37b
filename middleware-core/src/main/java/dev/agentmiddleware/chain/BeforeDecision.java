package dev.agentmiddleware.chain;

import java.util.Objects;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * What {@link ToolInterceptor#beforeInvocation} decided: go on (possibly with a changed invocation) or skip the
 * layers inside with a result.
 * <pre>{@code
 * return cached != null ? BeforeDecision.skip(cached, CallOutcome.CACHED) : BeforeDecision.proceed();
 * }</pre>
 */
public final class BeforeDecision {

	private static final BeforeDecision PROCEED = new BeforeDecision(null, false, null, CallOutcome.SHORT_CIRCUITED);

	private final @Nullable ToolInvocation invocation;

	private final boolean skip;

	private final @Nullable Object result;

	private final CallOutcome skipOutcome;

	private BeforeDecision(@Nullable ToolInvocation invocation, boolean skip, @Nullable Object result,
			CallOutcome skipOutcome) {
		this.invocation = invocation;
		this.skip = skip;
		this.result = result;
		this.skipOutcome = skipOutcome;
	}

	/**
	 * Go on with the invocation unchanged.
	 * @return the decision
	 */
	public static BeforeDecision proceed() {
		return PROCEED;
	}

	/**
	 * Go on with a changed invocation; the layers inside (and this interceptor's after-hook) see it.
	 * @param changed the invocation to pass inward, for example with rewritten arguments
	 * @return the decision
	 */
	public static BeforeDecision proceed(ToolInvocation changed) {
		return new BeforeDecision(Objects.requireNonNull(changed, "changed"), false, null,
				CallOutcome.SHORT_CIRCUITED);
	}

	/**
	 * Skip the layers inside and the tool; the call returns {@code result}. Observers see
	 * {@link CallOutcome#SHORT_CIRCUITED}.
	 * @param result the result of the call
	 * @return the decision
	 */
	public static BeforeDecision skip(@Nullable Object result) {
		return new BeforeDecision(null, true, result, CallOutcome.SHORT_CIRCUITED);
	}

	/**
	 * Skip the layers inside and the tool, reporting a specific outcome to observers, such as
	 * {@link CallOutcome#CACHED}.
	 * @param result the result of the call
	 * @param outcome the outcome observers see
	 * @return the decision
	 */
	public static BeforeDecision skip(@Nullable Object result, CallOutcome outcome) {
		return new BeforeDecision(null, true, result, Objects.requireNonNull(outcome, "outcome"));
	}

	boolean isSkip() {
		return this.skip;
	}

	@Nullable Object result() {
		return this.result;
	}

	CallOutcome skipOutcome() {
		return this.skipOutcome;
	}

	ToolInvocation invocationOr(ToolInvocation original) {
		return (this.invocation != null) ? this.invocation : original;
	}

}
