package dev.agentmiddleware.observation;

import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;

import dev.agentmiddleware.observation.AgentToolObservationConvention.AgentToolObservationContext;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;

/**
 * Observes tool calls with Micrometer {@link Observation}s, documented by
 * {@code AgentToolObservationDocumentation.TOOL_CALL}: the registry's handlers turn one
 * into a timer, a tracing span and, where the meter handler adds one, a long-task timer,
 * tagged with the tool, the outcome and the error type.
 *
 * <p>
 * The observation starts as a child of the current observation, so that a call made from
 * Spring AI's {@code ChatClient} nests under its {@code spring.ai.tool} observation, and
 * the tool (without a meter registry, also the layers inside) runs in its scope, so that
 * their own observations nest under it. The outcome is what the layers inside reported (a
 * cache hit is {@code cached}), or comes from the exception ({@code denied},
 * {@code rate_limited}, {@code timed_out}, {@code failed}).
 *
 * <p>
 * <b>Requests to the client.</b> Each elicitation or sampling request a tool makes to its
 * client through the {@code ToolClient} it is given is an observation
 * {@code agent.tool.client.request} of its own, a child of the call's, tagged with the
 * tool, the kind of request ({@code elicitation}, {@code sampling}) and its outcome
 * ({@code accept}, {@code decline}, {@code cancel}, {@code answered},
 * {@code unavailable}, {@code cancelled}, {@code failed}); each message it logs to its
 * client is an event {@code client.log} of the call's observation (a counter
 * {@code agent.tool.call.client.log} with the meter handler). Never what was asked or
 * answered.
 *
 * <p>
 * <b>Calls the tool did not run.</b> Given a {@link Builder#meterRegistry(MeterRegistry)
 * meter registry}, the middleware keeps the full observation for the calls that reach the
 * tool and times the others (cache hits, denials, rate limits, short-circuits) with a
 * cached {@code Timer} of the same name and tags: a cache hit then costs a timer record
 * instead of an observation (about 20 times less here). The observation of a call that
 * reaches the tool starts when the chain reaches it (after approval, the cache look-up
 * and the rate limit, inside the layers further in), on the thread that runs it, still as
 * a child of the observation current where the call entered; it stops when the call ends
 * here. Tracing users keep a span per executed call and get none for cache hits. The
 * cached timers take their name and tags from this middleware's convention (or the
 * default one), not from a global convention registered on the observation registry.
 * Without a meter registry, every call is one observation that starts when the call
 * enters this layer.
 *
 * <p>
 * <b>Cost:</b> with the no-op registry (or a registry without handlers) {@link #wrap}
 * returns {@code next}, so nothing is done per call. The check is made when the pipeline
 * is built. <pre>{@code
 * ObservationMiddleware observation = ObservationMiddleware.builder()
 *     .registry(observationRegistry)
 *     .convention(new DefaultAgentToolObservationConvention("ai.tool.call"))
 *     .meterRegistry(meterRegistry)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(weatherTool, observation, cache);
 * }</pre>
 */
public final class ObservationMiddleware extends BuiltInMiddleware<ObservationPolicy> {

	/** The name of this middleware in chains. */
	public static final String NAME = "observation";

	private static final AgentToolObservationConvention DEFAULT_CONVENTION = new DefaultAgentToolObservationConvention();

	private static final ToolCall.Listener<Observation> ENDED = (observation, invocation, outcome, decidedBy, result,
			error) -> {
		if (observation.getContext() instanceof AgentToolObservationContext context) {
			context.setOutcome(outcome);
		}
		if (error != null) {
			observation.error(error);
		}
	};

	private static final ToolCall.Listener<ExecutionObservation> EXECUTION_ENDED = (observed, invocation, outcome,
			decidedBy, result, error) -> observed.ended(outcome, error);

	private final ObservationRegistry registry;

	private final @Nullable AgentToolObservationConvention convention;

	private final @Nullable MeterRegistry meterRegistry;

	private final ToolClientRequestObservation clientRequests;

	private ObservationMiddleware(Builder builder) {
		super(NAME, builder);
		this.registry = Objects.requireNonNull(builder.registry, "registry: set it with registry(registry)");
		this.convention = builder.convention;
		this.meterRegistry = builder.meterRegistry;
		this.clientRequests = new ToolClientRequestObservation(this.registry);
	}

	/**
	 * Observes every tool with the default convention and order.
	 * @param registry the observation registry
	 * @return the middleware
	 */
	public static ObservationMiddleware of(ObservationRegistry registry) {
		return builder().registry(registry).build();
	}

	/**
	 * Starts an observation middleware that observes every tool, with order
	 * {@link BuiltInOrder#OBSERVATION}; its {@link Builder#registry registry} must be
	 * set. <pre>{@code
	 * ObservationMiddleware observation = ObservationMiddleware.builder()
	 *     .registry(registry)
	 *     .policies((tool) -> tool.name().equals("heartbeat") ? null : ObservationPolicy.OBSERVED)
	 *     .build();
	 * }</pre>
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	// With the no-op registry (or one without handlers) there is nothing to observe: no
	// tool is wrapped.
	@Override
	protected boolean appliesTo(ToolDescriptor tool, ObservationPolicy policy) {
		return !this.registry.isNoop();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, ObservationPolicy policy, ToolHandler next) {
		if (this.meterRegistry == null) {
			ToolHandler observingClientRequests = (invocation) -> {
				ToolCall.current().aroundClientRequests(this.clientRequests);
				return next.handle(invocation);
			};
			return (invocation) -> observe(invocation, observingClientRequests);
		}
		ShortCircuitTimers timers = new ShortCircuitTimers(this.meterRegistry,
				(this.convention != null) ? this.convention : DEFAULT_CONVENTION);
		return (invocation) -> {
			ExecutionObservation observed = new ExecutionObservation(this, invocation, next, timers);
			return ToolCall.observe(invocation, observed, EXECUTION_ENDED, observed);
		};
	}

	private Observation startObservation(AgentToolObservationContext context, @Nullable Observation parent) {
		return AgentToolObservationDocumentation.TOOL_CALL
			.observation(this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
			.parentObservation(parent)
			.start();
	}

	private @Nullable Object observe(ToolInvocation invocation, ToolHandler next) throws Exception {
		Observation observation = startObservation(new AgentToolObservationContext(invocation),
				this.registry.getCurrentObservation());
		try (Observation.Scope scope = observation.openScope()) {
			return ToolCall.observe(invocation, next, ENDED, observation);
		}
		finally {
			observation.stop();
		}
	}

	@Override
	public String toString() {
		return "ObservationMiddleware[order=" + order() + "]";
	}

	/**
	 * One call observed only if it reaches the tool: registers itself around the tool's
	 * runs on the call's {@link ToolCall}, starts the observation at the first run, and
	 * on the call's end stops it or, if the tool never ran, records the short-circuit
	 * timer.
	 */
	private static final class ExecutionObservation implements ToolHandler, ToolCall.ToolExecution {

		private final ObservationMiddleware middleware;

		private final ToolInvocation invocation;

		private final ToolHandler next;

		private final ShortCircuitTimers timers;

		private final @Nullable Observation parent;

		private final long startNanos;

		private @Nullable Observation observation;

		private boolean ended;

		ExecutionObservation(ObservationMiddleware middleware, ToolInvocation invocation, ToolHandler next,
				ShortCircuitTimers timers) {
			this.middleware = middleware;
			this.invocation = invocation;
			this.next = next;
			this.timers = timers;
			this.parent = middleware.registry.getCurrentObservation();
			this.startNanos = System.nanoTime();
		}

		// The rest of the chain, entered with the call bound.
		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			ToolCall call = ToolCall.current();
			call.aroundTool(this);
			call.aroundClientRequests(this.middleware.clientRequests);
			return this.next.handle(invocation);
		}

		@Override
		public @Nullable Object run(ToolInvocation invocation, ToolHandler tool) throws Exception {
			try (Observation.Scope scope = started().openScope()) {
				return tool.handle(invocation);
			}
		}

		private synchronized Observation started() {
			if (this.ended) {
				// An abandoned attempt (timed out) that reached the tool after the call
				// ended.
				return Observation.NOOP;
			}
			if (this.observation == null) {
				this.observation = this.middleware.startObservation(new AgentToolObservationContext(this.invocation),
						this.parent);
			}
			return this.observation;
		}

		void ended(CallOutcome outcome, @Nullable Throwable error) {
			Observation observation;
			synchronized (this) {
				this.ended = true;
				observation = this.observation;
			}
			if (observation == null) {
				this.timers.record(this.invocation, outcome, error, System.nanoTime() - this.startNanos);
				return;
			}
			if (observation.getContext() instanceof AgentToolObservationContext context) {
				context.setOutcome(outcome);
			}
			if (error != null) {
				observation.error(error);
			}
			observation.stop();
		}

	}

	/**
	 * Builds an {@link ObservationMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<ObservationPolicy, Builder> {

		private @Nullable ObservationRegistry registry;

		private @Nullable AgentToolObservationConvention convention;

		private @Nullable MeterRegistry meterRegistry;

		private Builder() {
			super((tool) -> ObservationPolicy.OBSERVED, BuiltInOrder.OBSERVATION);
		}

		/**
		 * Sets the observation registry (required).
		 * @param registry the registry
		 * @return this builder
		 */
		public Builder registry(ObservationRegistry registry) {
			this.registry = Objects.requireNonNull(registry, "registry");
			return this;
		}

		/**
		 * Sets a convention that replaces the default names and keys (and any global
		 * convention of the registry).
		 * @param convention the convention, or {@code null} for the default
		 * @return this builder
		 */
		public Builder convention(@Nullable AgentToolObservationConvention convention) {
			this.convention = convention;
			return this;
		}

		/**
		 * Sets the registry of the timers of calls the tool did not run: given one, such
		 * calls are timed with a cached timer instead of a full observation, and the
		 * observation of the other calls starts when the chain reaches the tool (see the
		 * class description).
		 * @param meterRegistry the meter registry, or {@code null} to observe every call
		 * (the default)
		 * @return this builder
		 */
		public Builder meterRegistry(@Nullable MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
			return this;
		}

		@Override
		public ObservationMiddleware build() {
			return new ObservationMiddleware(this);
		}

	}

	/**
	 * The meter handler of tool call observations only: a timer per observed call,
	 * without the long-task timer that {@link DefaultMeterObservationHandler} adds (which
	 * costs about as much as the rest of the observation), and with each timer looked up
	 * once per name, tags and error type instead of registered again at every stop. The
	 * timers are the ones the default handler registers: the observation's name, its
	 * low-cardinality key values and an {@code error} tag (the simple name of the error's
	 * class, or {@code none}). Placed before the default meter handler among the
	 * registry's first-matching meter handlers, it takes the tool calls and leaves every
	 * other observation to the default. <pre>{@code
	 * registry.observationConfig().observationHandler(new FirstMatchingCompositeObservationHandler(
	 *         new ToolCallMeterObservationHandler(meterRegistry), new DefaultMeterObservationHandler(meterRegistry)));
	 * }</pre>
	 */
	public static class ToolCallMeterObservationHandler extends DefaultMeterObservationHandler {

		// Low-cardinality tags make few timers; past this many, timers are registered
		// as the default handler does, so that a convention with a high-cardinality
		// "low-cardinality" value cannot grow this map without bound.
		private static final int MAX_CACHED_TIMERS = 10_000;

		private final MeterRegistry meterRegistry;

		private final ConcurrentMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();

		/**
		 * Creates the handler.
		 * @param meterRegistry where the timers are registered
		 */
		public ToolCallMeterObservationHandler(MeterRegistry meterRegistry) {
			super(meterRegistry, IgnoredMeters.LONG_TASK_TIMER);
			this.meterRegistry = meterRegistry;
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof AgentToolObservationContext;
		}

		@Override
		public void onStop(Observation.Context context) {
			Timer.Sample sample = context.getRequired(Timer.Sample.class);
			sample.stop(timer(context));
		}

		private Timer timer(Observation.Context context) {
			TimerKey key = new TimerKey(context.getName(), context.getLowCardinalityKeyValues(),
					ShortCircuitTimers.errorTag(context.getError()));
			Timer timer = this.timers.get(key);
			if (timer == null) {
				timer = ShortCircuitTimers.register(this.meterRegistry, key.name(), key.tags(), key.error());
				if (this.timers.size() < MAX_CACHED_TIMERS) {
					// Registering twice yields the same timer
					this.timers.put(key, timer);
				}
			}
			return timer;
		}

		private record TimerKey(String name, KeyValues tags, String error) {
		}

	}

}
