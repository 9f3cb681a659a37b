package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Phase-style middleware: a hook before the call and a hook after it, for people who prefer not to write the
 * around style of {@link ToolMiddleware}. Interceptors are adapted into middleware
 * ({@link #asMiddleware()}), so both styles mix in one ordered chain.
 *
 * <p><b>Order:</b> before-hooks run first-in-first-out (outermost first); after-hooks run last-in-first-out
 * (innermost first).
 * <p><b>Skip:</b> a before-hook may {@link BeforeDecision#skip skip} the layers inside and the tool with a
 * result of its own. The after-hooks of every interceptor already entered (including the one that skipped)
 * still run, innermost first, and see {@link ToolCallResult#shortCircuited()}.
 * <p><b>Failures:</b> if the tool or a layer inside fails, after-hooks see the failure and may replace it. If a
 * hook itself throws, the call fails with that exception (a suppressed exception names the interceptor), and
 * the after-hooks of interceptors entered earlier still see it. Nothing is swallowed.
 * <p><b>Threading:</b> hooks run on the caller's thread, concurrently for concurrent calls; keep per-call
 * state in the invocation's attributes, not in fields.
 * <pre>{@code
 * class RedactingInterceptor implements ToolInterceptor {
 *     public BeforeDecision beforeInvocation(ToolInvocation invocation) {
 *         return BeforeDecision.proceed(invocation.withArgument("query", clean(invocation.argument("query"))));
 *     }
 *     public ToolCallResult afterInvocation(ToolInvocation invocation, ToolCallResult result) {
 *         return result.isFailure() ? result : ToolCallResult.success(mask(result.value()));
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
	 * Runs after the layers inside, on success, on failure and on skip. Default: return the result unchanged.
	 * @param invocation the call as this interceptor passed it inward
	 * @param result how the layers inside ended
	 * @return the result to pass outward: {@code result} itself, or a replacement
	 * @throws Exception to fail the call
	 */
	default ToolCallResult afterInvocation(ToolInvocation invocation, ToolCallResult result) throws Exception {
		return result;
	}

	/**
	 * Whether this interceptor applies to the tool; decided once, when the tool's pipeline is built. An
	 * interceptor that does not apply costs nothing per call. Default: every tool.
	 * @param tool the tool whose pipeline is being built
	 * @return {@code true} to join the tool's chain
	 */
	default boolean appliesTo(ToolDescriptor tool) {
		return true;
	}

	/**
	 * The name shown in printed chains, observer records and error messages. Defaults to the class name in
	 * kebab case without an {@code Interceptor} suffix.
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

}
