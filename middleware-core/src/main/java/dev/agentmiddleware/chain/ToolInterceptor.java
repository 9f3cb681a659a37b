package dev.agentmiddleware.chain;

import java.util.Objects;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Phase-style middleware: a hook before the call and a hook after it, for people who
 * prefer not to write the around style of {@link ToolMiddleware}. Interceptors are
 * adapted into middleware ({@link #asMiddleware()}), so both styles mix in one ordered
 * chain.
 *
 * <p>
 * <b>Order:</b> before-hooks run first-in-first-out (outermost first); after-hooks run
 * last-in-first-out (innermost first).
 * <p>
 * <b>Skip:</b> a before-hook may {@link BeforeDecision#skip skip} the layers inside and
 * the tool with a result of its own. The after-hooks of every interceptor already entered
 * (including the one that skipped) still run, innermost first, and see
 * {@link Result#shortCircuited()}.
 * <p>
 * <b>Failures:</b> if the tool or a layer inside fails, after-hooks see the failure and
 * may replace it. If a hook itself throws, the call fails with that exception (a
 * suppressed exception names the interceptor), and the after-hooks of interceptors
 * entered earlier still see it. Nothing is swallowed.
 * <p>
 * <b>Threading:</b> hooks run on the caller's thread, concurrently for concurrent calls;
 * keep per-call state in the invocation's attributes, not in fields. <pre>{@code
 * class RedactingInterceptor implements ToolInterceptor {
 *     public BeforeDecision beforeInvocation(ToolInvocation invocation) {
 *         return BeforeDecision.proceed(invocation.withArgument("query", clean(invocation.argument("query"))));
 *     }
 *     public Result afterInvocation(ToolInvocation invocation, Result result) {
 *         return result.isFailure() ? result : Result.success(mask(result.value()));
 *     }
 * }
 * }</pre>
 */
public interface ToolInterceptor {

	/**
	 * Runs before the layers inside. Default: proceed unchanged.
	 * @param invocation the call as it reached this interceptor
	 * @return proceed (optionally with a changed invocation) or skip with a result
	 * @throws Exception to fail the call
	 */
	default BeforeDecision beforeInvocation(ToolInvocation invocation) throws Exception {
		return BeforeDecision.proceed();
	}

	/**
	 * Runs after the layers inside, on success, on failure and on skip. Default: return
	 * the result unchanged.
	 * @param invocation the call as this interceptor passed it inward
	 * @param result how the layers inside ended
	 * @return the result to pass outward: {@code result} itself, or a replacement
	 * @throws Exception to fail the call
	 */
	default Result afterInvocation(ToolInvocation invocation, Result result) throws Exception {
		return result;
	}

	/**
	 * Whether this interceptor applies to the tool; decided once, when the tool's
	 * pipeline is built. An interceptor that does not apply costs nothing per call.
	 * Default: every tool.
	 * @param tool the tool whose pipeline is being built
	 * @return {@code true} to join the tool's chain
	 */
	default boolean appliesTo(ToolDescriptor tool) {
		return true;
	}

	/**
	 * The name shown in printed chains, observer records and error messages. Defaults to
	 * the class name in kebab case without an {@code Interceptor} suffix.
	 * @return the name
	 */
	default String name() {
		return MiddlewareNames.of(getClass(), "Interceptor");
	}

	/**
	 * This interceptor as around-style middleware, to be placed in a chain.
	 * @return the adapted middleware
	 */
	default ToolMiddleware asMiddleware() {
		return new InterceptorMiddleware(this);
	}

	/**
	 * How the layers inside an interceptor ended: a value or an exception. Handed to
	 * {@link ToolInterceptor#afterInvocation}, which may return it unchanged or replace
	 * it. <pre>{@code
	 * return result.isFailure() ? Result.success(fallback) : result;
	 * }</pre>
	 */
	public static final class Result {

		private final @Nullable Object value;

		private final @Nullable Exception error;

		private final boolean shortCircuited;

		private Result(@Nullable Object value, @Nullable Exception error, boolean shortCircuited) {
			this.value = value;
			this.error = error;
			this.shortCircuited = shortCircuited;
		}

		/**
		 * A successful result.
		 * @param value the value, {@code null} for {@code void} tools
		 * @return the result
		 */
		public static Result success(@Nullable Object value) {
			return new Result(value, null, false);
		}

		/**
		 * A failed result.
		 * @param error the failure
		 * @return the result
		 */
		public static Result failure(Exception error) {
			return new Result(null, Objects.requireNonNull(error, "error"), false);
		}

		static Result skipped(@Nullable Object value) {
			return new Result(value, null, true);
		}

		/**
		 * Whether the layers inside ended with an exception.
		 * @return {@code true} on failure
		 */
		public boolean isFailure() {
			return this.error != null;
		}

		/**
		 * The value of a successful call.
		 * @return the value, {@code null} for failures and {@code void} tools
		 */
		public @Nullable Object value() {
			return this.value;
		}

		/**
		 * The failure.
		 * @return the exception, or {@code null} on success
		 */
		public @Nullable Exception error() {
			return this.error;
		}

		/**
		 * Whether an interceptor skipped the layers inside with a result of its own; the
		 * tool did not run.
		 * @return {@code true} if the call was short-circuited
		 */
		public boolean shortCircuited() {
			return this.shortCircuited;
		}

		/**
		 * Returns the value or throws the failure.
		 * @return the value
		 * @throws Exception the failure
		 */
		public @Nullable Object getOrThrow() throws Exception {
			if (this.error != null) {
				throw this.error;
			}
			return this.value;
		}

		@Override
		public String toString() {
			return (this.error != null) ? "failure(" + this.error.getClass().getSimpleName() + ")"
					: (this.shortCircuited ? "skipped" : "success");
		}

	}

	/**
	 * What {@link ToolInterceptor#beforeInvocation} decided: go on (possibly with a
	 * changed invocation) or skip the layers inside with a result. <pre>{@code
	 * return cached != null ? BeforeDecision.skip(cached, CallOutcome.CACHED) : BeforeDecision.proceed();
	 * }</pre>
	 */
	public static final class BeforeDecision {

		private static final BeforeDecision PROCEED = new BeforeDecision(null, false, null,
				CallOutcome.SHORT_CIRCUITED);

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
		 * Go on with a changed invocation; the layers inside (and this interceptor's
		 * after-hook) see it.
		 * @param changed the invocation to pass inward, for example with rewritten
		 * arguments
		 * @return the decision
		 */
		public static BeforeDecision proceed(ToolInvocation changed) {
			return new BeforeDecision(Objects.requireNonNull(changed, "changed"), false, null,
					CallOutcome.SHORT_CIRCUITED);
		}

		/**
		 * Skip the layers inside and the tool; the call returns {@code result}. Observers
		 * see {@link CallOutcome#SHORT_CIRCUITED}.
		 * @param result the result of the call
		 * @return the decision
		 */
		public static BeforeDecision skip(@Nullable Object result) {
			return new BeforeDecision(null, true, result, CallOutcome.SHORT_CIRCUITED);
		}

		/**
		 * Skip the layers inside and the tool, reporting a specific outcome to observers,
		 * such as {@link CallOutcome#CACHED}.
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

}
