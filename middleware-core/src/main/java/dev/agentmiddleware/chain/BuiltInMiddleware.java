package dev.agentmiddleware.chain;

import dev.agentmiddleware.internal.ToolPolicies;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Ticker;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;

import org.jspecify.annotations.Nullable;

/**
 * The base of the built-in middleware that apply a policy per tool (timeout, retry, rate
 * limit, …), so that every one of them decides, reports and is built the same way:
 * <ul>
 * <li>the policy of a tool is decided once, when the tool's pipeline is built, by the
 * function given to {@link Builder#policies(Function) policies(fn)}; a tool without a
 * policy is left unwrapped ({@link #wrap} returns {@code next}) and costs nothing per
 * call;</li>
 * <li>what was decided is remembered, so that {@link #policies()} (and the actuator
 * endpoint) report what actually runs;</li>
 * <li>the name and the {@link Builder#order(int) order} are fixed when the middleware is
 * built; a lower order runs further out.</li>
 * </ul>
 * Every built-in is made by a {@link Builder} of the same shape: {@code builder()}, then
 * {@code policies(fn)} and {@code order(int)}, then its own settings, in any order, then
 * {@code build()}. <pre>{@code
 * TimeoutMiddleware timeout = TimeoutMiddleware.builder()
 *     .policies((tool) -> tool.hasTag("browser") ? TimeoutPolicy.of(Duration.ofSeconds(30)) : null)
 *     .order(BuiltInOrder.TIMEOUT)
 *     .maxThreads(16)
 *     .build();
 * }</pre> A middleware of your own can take the same shape: <pre>{@code
 * public final class QuotaMiddleware extends BuiltInMiddleware<QuotaPolicy> {
 *
 *     private QuotaMiddleware(Builder builder) {
 *         super("quota", builder);
 *     }
 *
 *     public static Builder builder() {
 *         return new Builder();
 *     }
 *
 *     protected ToolHandler wrap(ToolDescriptor tool, QuotaPolicy policy, ToolHandler next) {
 *         return (invocation) -> {
 *             policy.check(invocation);
 *             return next.handle(invocation);
 *         };
 *     }
 *
 *     public static final class Builder extends BuiltInMiddleware.Builder<QuotaPolicy, Builder> {
 *
 *         private Builder() {
 *             super((tool) -> null, BuiltInOrder.POLICY);
 *         }
 *
 *         public QuotaMiddleware build() {
 *             return new QuotaMiddleware(this);
 *         }
 *
 *     }
 *
 * }
 * }</pre>
 *
 * @param <P> the policy type
 */
public abstract class BuiltInMiddleware<P> implements OrderedMiddleware {

	private final String name;

	private final int order;

	private final Function<ToolDescriptor, @Nullable P> configured;

	private final ToolPolicies<P> policies;

	private final MiddlewareMetrics metrics;

	private final SecretRedactor redactor;

	private final Clock clock;

	private final Ticker ticker;

	/**
	 * Creates the middleware from what its builder was given.
	 * @param name the name of the middleware in chains and in {@code decidedBy}
	 * @param builder the builder; when it has no default policies,
	 * {@link Builder#policies(Function)} must have been called
	 * @throws NullPointerException when no policies were set and there is no default,
	 * naming {@code policies(fn)}
	 */
	protected BuiltInMiddleware(String name, Builder<P, ?> builder) {
		this.name = Objects.requireNonNull(name, "name");
		this.order = builder.order;
		this.configured = Objects.requireNonNull(builder.policies,
				() -> "policies: set which tools " + name + " applies to with policies(fn)");
		this.policies = ToolPolicies.of(this::policyOf);
		this.metrics = builder.metrics;
		this.redactor = builder.redactor;
		this.clock = builder.clock;
		this.ticker = builder.ticker;
	}

	/**
	 * Where this middleware counts what it does, as set with
	 * {@link Builder#metrics(MiddlewareMetrics)}.
	 * @return the metrics
	 */
	protected final MiddlewareMetrics metrics() {
		return this.metrics;
	}

	/**
	 * How this middleware hides secrets, as set with
	 * {@link Builder#redactor(SecretRedactor)}.
	 * @return the redactor
	 */
	protected final SecretRedactor redactor() {
		return this.redactor;
	}

	/**
	 * The wall clock of this middleware, as set with {@link Builder#clock(Clock)}.
	 * @return the clock
	 */
	protected final Clock clock() {
		return this.clock;
	}

	/**
	 * The time source of this middleware's rates, as set with
	 * {@link Builder#ticker(Ticker)}.
	 * @return the time source in nanoseconds
	 */
	protected final Ticker ticker() {
		return this.ticker;
	}

	/**
	 * Wraps a tool's handler if the tool has a policy, and remembers the policy;
	 * otherwise returns {@code next}.
	 * @param tool the tool whose pipeline is being built
	 * @param next the rest of the chain
	 * @return the handler of {@link #wrap(ToolDescriptor, Object, ToolHandler)}, or
	 * {@code next}
	 */
	@Override
	public final ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		P policy = this.policies.resolve(tool);
		return (policy != null) ? wrap(tool, policy, next) : next;
	}

	/**
	 * Wraps the handler of a tool that has a policy; called once per tool, when its
	 * pipeline is built.
	 * @param tool the tool
	 * @param policy its policy
	 * @param next the rest of the chain
	 * @return the handler to use instead of {@code next}; never {@code null}
	 */
	protected abstract ToolHandler wrap(ToolDescriptor tool, P policy, ToolHandler next);

	/**
	 * Whether this middleware applies a tool's configured policy at all (default:
	 * always). A middleware overrides it for a rule that holds whatever the configuration
	 * says, such as retrying no side-effecting tool.
	 * @param tool the tool
	 * @param policy the policy the configuration gives it
	 * @return {@code false} to leave the tool without a policy
	 */
	protected boolean appliesTo(ToolDescriptor tool, P policy) {
		return true;
	}

	/**
	 * Decides the policy of a tool without remembering it, for a question about a tool
	 * outside its pipeline (such as whether a caller may see it).
	 * @param tool the tool
	 * @return its policy, or {@code null} when this middleware does not apply to it
	 */
	protected final @Nullable P policyOf(ToolDescriptor tool) {
		P policy = this.configured.apply(tool);
		return (policy != null && appliesTo(tool, policy)) ? policy : null;
	}

	/**
	 * The policy of every tool this middleware applies to, as decided when the tools'
	 * pipelines were built.
	 * @return the policies by tool name, sorted by name
	 */
	public Map<String, P> policies() {
		return this.policies.applied();
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public final int order() {
		return this.order;
	}

	/**
	 * The builder of a {@link BuiltInMiddleware}: the per-tool policies and the order,
	 * the settings every built-in has, and the services the built-ins share (metrics,
	 * redactor, clock, ticker), each with its default; a subclass adds the settings of
	 * its middleware and {@link #build()}. The setters return the subclass, so they chain
	 * in any order with its own. <pre>{@code
	 * RetryMiddleware retry = RetryMiddleware.builder()
	 *     .policies((tool) -> tool.name().equals("search") ? RetryPolicy.defaults() : null)
	 *     .order(BuiltInOrder.RETRY)
	 *     .metrics(metrics)
	 *     .build();
	 * }</pre>
	 *
	 * @param <P> the policy type
	 * @param <B> the subclass, returned by the setters
	 */
	public abstract static class Builder<P, B extends Builder<P, B>> {

		private @Nullable Function<ToolDescriptor, @Nullable P> policies;

		private int order;

		private MiddlewareMetrics metrics = MiddlewareMetrics.NONE;

		private SecretRedactor redactor = SecretRedactor.withDefaults();

		private Clock clock = Clock.systemUTC();

		private Ticker ticker = Ticker.systemTicker();

		/**
		 * Starts the builder with the middleware's defaults.
		 * @param defaultPolicies the policy of each tool until
		 * {@link #policies(Function)} is called, or {@code null} when it must be called
		 * (the middleware has no sensible default)
		 * @param defaultOrder the order until {@link #order(int)} is called, usually one
		 * of {@link BuiltInOrder}
		 */
		protected Builder(@Nullable Function<ToolDescriptor, @Nullable P> defaultPolicies, int defaultOrder) {
			this.policies = defaultPolicies;
			this.order = defaultOrder;
		}

		/**
		 * Sets the policy of each tool, decided once per tool when its pipeline is built
		 * (the default is named by the middleware's {@code builder()}).
		 * @param policies gives a tool's policy, or {@code null} for a tool this
		 * middleware leaves alone
		 * @return this builder
		 */
		public final B policies(Function<ToolDescriptor, @Nullable P> policies) {
			this.policies = Objects.requireNonNull(policies, "policies");
			return self();
		}

		/**
		 * Sets the position in the chain (the default is the middleware's place in
		 * {@link BuiltInOrder}).
		 * @param order the order; a lower value runs further out
		 * @return this builder
		 */
		public final B order(int order) {
			this.order = order;
			return self();
		}

		/**
		 * Sets where the middleware counts what it does: retries, rejections, cache hits,
		 * redactions, approval requests (default {@link MiddlewareMetrics#NONE}). A
		 * middleware that counts nothing ignores it.
		 * @param metrics the metrics
		 * @return this builder
		 */
		public final B metrics(MiddlewareMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
			return self();
		}

		/**
		 * Sets how secrets are recognised and hidden in what the middleware logs, keeps
		 * or returns: arguments, reasons, results (default
		 * {@link SecretRedactor#withDefaults()}). A middleware that shows no value
		 * ignores it.
		 * @param redactor the redactor
		 * @return this builder
		 */
		public final B redactor(SecretRedactor redactor) {
			this.redactor = Objects.requireNonNull(redactor, "redactor");
			return self();
		}

		/**
		 * Sets the wall clock of the middleware's deadlines and lifetimes, such as
		 * approval's request expiry, grant life and deny-repeat window (default
		 * {@link Clock#systemUTC()}); tests pass a fixed or stepping clock instead of
		 * waiting.
		 * @param clock the clock
		 * @return this builder
		 */
		public final B clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return self();
		}

		/**
		 * Sets the time source of the middleware's rates and evictions, such as the rate
		 * limiters' refill (default the system's nano time); tests pass a fake one to
		 * refill limits and expire sessions without waiting.
		 * @param ticker the time source, in nanoseconds
		 * @return this builder
		 */
		public final B ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return self();
		}

		/**
		 * Builds the middleware.
		 * @return the middleware
		 */
		public abstract BuiltInMiddleware<P> build();

		@SuppressWarnings("unchecked")
		private B self() {
			return (B) this;
		}

	}

}
