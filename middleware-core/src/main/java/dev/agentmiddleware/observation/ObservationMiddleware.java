package dev.agentmiddleware.observation;

import java.util.Objects;
import java.util.function.Predicate;

import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes every tool call with one Micrometer {@link Observation}, documented by
 * {@link ToolCallObservationDocumentation#TOOL_CALL}: the registry's handlers turn it into a timer, a long-task
 * timer and a tracing span, tagged with the tool, the outcome and the error type.
 *
 * <p>The observation starts as a child of the current observation, so that a call made from Spring AI's
 * {@code ChatClient} nests under its {@code spring.ai.tool} observation, and the layers inside and the tool run in
 * its scope, so that their own observations nest under it. The outcome is what the layers inside reported (a cache
 * hit is {@code cached}), or comes from the exception ({@code denied}, {@code rate_limited}, {@code timed_out},
 * {@code failed}).
 *
 * <p><b>Cost:</b> with the no-op registry (or a registry without handlers) {@link #wrap} returns {@code next},
 * so nothing is done per call. The check is made when the pipeline is built.
 * <pre>{@code
 * ObservationMiddleware observation = ObservationMiddleware.builder(observationRegistry)
 *     .convention(new DefaultToolCallObservationConvention("ai.tool.call"))
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(weatherTool, observation, cache);
 * }</pre>
 */
public final class ObservationMiddleware implements OrderedMiddleware {

	private static final ToolCallObservationConvention DEFAULT_CONVENTION = new DefaultToolCallObservationConvention();

	private static final ToolCall.Listener<Observation> ENDED = (observation, invocation, outcome, decidedBy, result,
			error) -> {
		if (observation.getContext() instanceof ToolCallObservationContext context) {
			context.setOutcome(outcome);
		}
		if (error != null) {
			observation.error(error);
		}
	};

	private final ObservationRegistry registry;

	private final @Nullable ToolCallObservationConvention convention;

	private final Predicate<ToolDescriptor> tools;

	private final int order;

	private ObservationMiddleware(Builder builder) {
		this.registry = builder.registry;
		this.convention = builder.convention;
		this.tools = builder.tools;
		this.order = builder.order;
	}

	/**
	 * Observes every tool with the default convention and order.
	 * @param registry the observation registry
	 * @return the middleware
	 */
	public static ObservationMiddleware of(ObservationRegistry registry) {
		return builder(registry).build();
	}

	/**
	 * Starts an observation middleware.
	 * @param registry the observation registry
	 * @return a builder
	 */
	public static Builder builder(ObservationRegistry registry) {
		return new Builder(registry);
	}

	@Override
	public String name() {
		return "observation";
	}

	@Override
	public int order() {
		return this.order;
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		if (this.registry.isNoop() || !this.tools.test(tool)) {
			return next;
		}
		return (invocation) -> observe(invocation, next);
	}

	private @Nullable Object observe(ToolInvocation invocation, ToolHandler next) throws Exception {
		ToolCallObservationContext context = new ToolCallObservationContext(invocation);
		Observation observation = ToolCallObservationDocumentation.TOOL_CALL
			.observation(this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
			.parentObservation(this.registry.getCurrentObservation())
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			return ToolCall.observe(invocation, next, ENDED, observation);
		}
		finally {
			observation.stop();
		}
	}

	@Override
	public String toString() {
		return "ObservationMiddleware[order=" + this.order + "]";
	}

	/**
	 * Builds an {@link ObservationMiddleware}.
	 */
	public static final class Builder {

		private final ObservationRegistry registry;

		private @Nullable ToolCallObservationConvention convention;

		private Predicate<ToolDescriptor> tools = (tool) -> true;

		private int order = BuiltInOrder.OBSERVATION;

		private Builder(ObservationRegistry registry) {
			this.registry = Objects.requireNonNull(registry, "registry");
		}

		/**
		 * Sets a convention that replaces the default names and keys (and any global convention of the registry).
		 * @param convention the convention, or {@code null} for the default
		 * @return this builder
		 */
		public Builder convention(@Nullable ToolCallObservationConvention convention) {
			this.convention = convention;
			return this;
		}

		/**
		 * Sets which tools are observed (default: all).
		 * @param tools decides per tool, when its pipeline is built
		 * @return this builder
		 */
		public Builder tools(Predicate<ToolDescriptor> tools) {
			this.tools = Objects.requireNonNull(tools, "tools");
			return this;
		}

		/**
		 * Sets the order (default {@link BuiltInOrder#OBSERVATION}).
		 * @param order the order; lower runs further out
		 * @return this builder
		 */
		public Builder order(int order) {
			this.order = order;
			return this;
		}

		/**
		 * Builds the middleware.
		 * @return the middleware
		 */
		public ObservationMiddleware build() {
			return new ObservationMiddleware(this);
		}

	}

}
