package dev.agentmiddleware.retry;

import java.time.Duration;

import java.util.List;
import java.util.Objects;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.RetryConfig;
import org.jspecify.annotations.Nullable;
import java.util.concurrent.TimeUnit;

/**
 * Retries failed calls of idempotent and read-only tools, with exponential backoff and
 * jitter.
 *
 * <p>
 * Applies only to tools that are {@link ToolDescriptor#idempotent() idempotent} or
 * {@link ToolDescriptor#readOnly() read-only} and that its policy function gives a
 * {@link RetryPolicy} with more than one attempt; every other tool is left unwrapped,
 * whatever the policy says, so a side-effecting tool never runs twice unless the
 * builder's {@link Builder#sideEffectingTools} names it explicitly. Each attempt calls
 * the rest of the chain again, so with the default order every attempt passes the rate
 * limit and gets its own timeout. Each retry counts {@link MiddlewareEvent#RETRY}. When
 * the attempts run out, or a failure is not retried, the last failure propagates
 * unchanged.
 *
 * <p>
 * <b>Never retried</b>, whatever the policy lists: a failure whose
 * {@linkplain CallOutcome#ofFailure outcome} is a refusal of the chain rather than
 * {@code failed} or {@code timed_out} (denied, forbidden, rate limited, invalid
 * arguments, unknown tool, cancelled: {@link ToolDeniedException},
 * {@link ToolRateLimitedException}, {@link InvalidToolArgumentsException} and the like),
 * {@link ToolContractViolationException}, {@link InterruptedException} and errors, nor
 * anything once the call is {@linkplain CallCancellation cancelled}: a cancellation
 * during the backoff ends it at once (with the default {@link Sleeper#THREAD}; another
 * sleeper is asked after it returns) and the call fails with a
 * {@link ToolCancelledException}. A {@link ToolTimeoutException} is retried only when the
 * policy names {@code ToolTimeoutException} (or a subclass) itself, not through a
 * supertype such as {@code RuntimeException}: the timeouts this middleware sees are per
 * attempt (a timeout ordered outside it ends the whole call and never reaches it), and
 * retrying one multiplies how long the caller waits.
 *
 * <p>
 * The schedule and the retry decision come from a Resilience4j {@link RetryConfig} (its
 * interval function and exception predicate). The attempts themselves run in this class
 * rather than in Resilience4j's {@code Retry}, because that one waits through a single
 * JVM-wide sleep function; here the {@link Sleeper} and the source of jitter are per
 * middleware, so schedules can be tested without sleeping. <pre>{@code
 * RetryMiddleware retry = RetryMiddleware.builder()
 *     .policies((tool) -> RetryPolicy.defaults().withMaxAttempts(4))
 *     .metrics(metrics)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(weatherTool, retry);
 * }</pre>
 */
public final class RetryMiddleware extends BuiltInMiddleware<RetryPolicy> {

	/** The name of this middleware in chains. */
	public static final String NAME = "retry";

	private final Predicate<ToolDescriptor> sideEffectingTools;

	private final Sleeper sleeper;

	private final DoubleSupplier random;

	private RetryMiddleware(Builder builder) {
		super(NAME, builder);
		this.sideEffectingTools = builder.sideEffectingTools;
		this.sleeper = builder.sleeper;
		this.random = builder.random;
	}

	/**
	 * Starts a retry middleware; by default every idempotent or read-only tool is retried
	 * with {@link RetryPolicy#defaults()}, with order {@link BuiltInOrder#RETRY}. Only
	 * idempotent and read-only tools, and those {@link Builder#sideEffectingTools} names,
	 * are ever wrapped, whatever the policies say. <pre>{@code
	 * RetryMiddleware retry = RetryMiddleware.builder()
	 *     .policies((tool) -> tool.name().equals("search") ? RetryPolicy.defaults() : null)
	 *     .build();
	 * }</pre>
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Whether a tool may be retried at all: it is idempotent or read-only.
	 * @param tool the tool
	 * @return {@code true} if running it twice with the same arguments is safe
	 */
	public static boolean isRetryable(ToolDescriptor tool) {
		return tool.idempotent() || tool.readOnly();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, RetryPolicy policy, ToolHandler next) {
		return new RetryingHandler(tool.name(), next, config(policy), this.sleeper, metrics());
	}

	// Never re-run a side-effecting tool, and one attempt is no retry.
	@Override
	protected boolean appliesTo(ToolDescriptor tool, RetryPolicy policy) {
		return policy.maxAttempts() >= 2 && (isRetryable(tool) || this.sideEffectingTools.test(tool));
	}

	private RetryConfig config(RetryPolicy policy) {
		IntervalFunction exponential = IntervalFunction.ofExponentialBackoff(policy.initialBackoff(),
				policy.multiplier(), policy.maxBackoff());
		double jitter = policy.jitter();
		long maxMillis = policy.maxBackoff().toMillis();
		DoubleSupplier random = this.random;
		IntervalFunction jittered = (jitter == 0.0) ? exponential : (attempt) -> {
			long base = exponential.apply(attempt);
			double factor = 1.0 - jitter + 2.0 * jitter * random.getAsDouble();
			return Math.max(1, Math.min(maxMillis, Math.round(base * factor)));
		};
		return RetryConfig.custom()
			.maxAttempts(policy.maxAttempts())
			.intervalBiFunction(IntervalBiFunction.ofIntervalFunction(jittered))
			.retryOnException(retryable(policy.retryOn(), policy.ignore()))
			.build();
	}

	private static Predicate<Throwable> retryable(List<Class<? extends Throwable>> retryOn,
			List<Class<? extends Throwable>> ignore) {
		return (failure) -> {
			CallOutcome outcome = CallOutcome.ofFailure(failure);
			// A refusal of the chain (denied, forbidden, rate limited, invalid
			// arguments, unknown tool) and a cancelled call are answers, not faults
			if ((outcome != CallOutcome.FAILED && outcome != CallOutcome.TIMED_OUT)
					|| failure instanceof ToolContractViolationException || failure instanceof InterruptedException) {
				return false;
			}
			for (Class<? extends Throwable> type : ignore) {
				if (type.isInstance(failure)) {
					return false;
				}
			}
			boolean timeout = outcome == CallOutcome.TIMED_OUT;
			for (Class<? extends Throwable> type : retryOn) {
				if (type.isInstance(failure) && (!timeout || ToolTimeoutException.class.isAssignableFrom(type))) {
					return true;
				}
			}
			return false;
		};
	}

	private static final class RetryingHandler implements ToolHandler {

		private final String toolName;

		private final ToolHandler next;

		private final int maxAttempts;

		private final Predicate<Throwable> retryable;

		private final IntervalBiFunction<@Nullable Object> backoff;

		private final Sleeper sleeper;

		private final MiddlewareMetrics metrics;

		RetryingHandler(String toolName, ToolHandler next, RetryConfig config, Sleeper sleeper,
				MiddlewareMetrics metrics) {
			this.toolName = toolName;
			this.next = next;
			this.maxAttempts = config.getMaxAttempts();
			this.retryable = config.getExceptionPredicate();
			this.backoff = config.getIntervalBiFunction();
			this.sleeper = sleeper;
			this.metrics = metrics;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			CallCancellation cancellation = ToolCall.current().cancellation();
			for (int attempt = 1;; attempt++) {
				try {
					return this.next.handle(invocation);
				}
				catch (Exception ex) {
					if (attempt >= this.maxAttempts || !this.retryable.test(ex)) {
						throw ex;
					}
					if (cancellation.isCancelled()) {
						// The attempt failed while its call was cancelled: the call ends
						// cancelled, untried again
						throw new ToolCancelledException(this.toolName, NAME, cancellation.reason(), ex);
					}
					long millis = this.backoff.apply(attempt, Either.left(ex));
					this.metrics.count(MiddlewareEvent.RETRY, this.toolName);
					try {
						// The default sleeper's backoff ends early when the call is
						// cancelled
						boolean cancelled = (this.sleeper == Sleeper.THREAD)
								? cancellation.await(Duration.ofMillis(millis)) : sleep(millis, cancellation);
						if (cancelled) {
							throw new ToolCancelledException(this.toolName, NAME, cancellation.reason(), ex);
						}
					}
					catch (InterruptedException interrupted) {
						Thread.currentThread().interrupt();
						throw ex;
					}
				}
			}
		}

		private boolean sleep(long millis, CallCancellation cancellation) throws InterruptedException {
			this.sleeper.sleep(Duration.ofMillis(millis));
			return cancellation.isCancelled();
		}

	}

	/**
	 * Builds a {@link RetryMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<RetryPolicy, Builder> {

		private Sleeper sleeper = Sleeper.THREAD;

		private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();

		private Predicate<ToolDescriptor> sideEffectingTools = (tool) -> false;

		private Builder() {
			super((tool) -> RetryPolicy.defaults(), BuiltInOrder.RETRY);
		}

		/**
		 * Sets the tools that are neither idempotent nor read-only but retried all the
		 * same, because their owner said so explicitly (default none).
		 * @param sideEffectingTools whether a side-effecting tool may be retried
		 * @return this builder
		 */
		public Builder sideEffectingTools(Predicate<ToolDescriptor> sideEffectingTools) {
			this.sideEffectingTools = Objects.requireNonNull(sideEffectingTools, "sideEffectingTools");
			return this;
		}

		/**
		 * Sets how to wait between attempts (default {@link Sleeper#THREAD}).
		 * @param sleeper the sleeper
		 * @return this builder
		 */
		public Builder sleeper(Sleeper sleeper) {
			this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
			return this;
		}

		/**
		 * Sets the source of jitter: uniformly distributed values from 0 (inclusive) to 1
		 * (exclusive); default {@link ThreadLocalRandom}. Tests pass a seeded or fixed
		 * one.
		 * @param random the source
		 * @return this builder
		 */
		public Builder random(DoubleSupplier random) {
			this.random = Objects.requireNonNull(random, "random");
			return this;
		}

		@Override
		public RetryMiddleware build() {
			return new RetryMiddleware(this);
		}

	}

	/**
	 * Waits between two attempts of a retried call. The default blocks the calling
	 * thread; tests pass one that records the backoff instead of sleeping. <pre>{@code
	 * List<Duration> waits = new ArrayList<>();
	 * RetryMiddleware retry = RetryMiddleware.builder().policies((tool) -> RetryPolicy.defaults()).sleeper(waits::add).build();
	 * }</pre>
	 */
	@FunctionalInterface
	public interface Sleeper {

		/** Blocks the calling thread for the duration. */
		Sleeper THREAD = (duration) -> TimeUnit.NANOSECONDS.sleep(duration.toNanos());

		/**
		 * Waits.
		 * @param duration how long
		 * @throws InterruptedException if the thread is interrupted while waiting; the
		 * call then stops retrying
		 */
		void sleep(Duration duration) throws InterruptedException;

	}

}
