package dev.agentmiddleware.observation;

import java.util.Objects;
import java.util.function.Supplier;

import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.observation.AgentToolObservationDocumentation.ClientRequestKeyNames;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes the requests a tool makes to its client, registered by the
 * {@link ObservationMiddleware} on each call it observes
 * ({@link ToolCall#aroundClientRequests}): each elicitation or sampling request is an
 * observation documented by
 * {@code AgentToolObservationDocumentation.TOOL_CLIENT_REQUEST}, a child of the
 * observation current where the tool makes it (the call's), and each message the tool
 * logs to its client is an event ({@link #CLIENT_LOG}) of that observation. What was
 * asked or answered is never part of either.
 */
final class ToolClientRequestObservation implements ToolCall.ClientRequestExecution {

	/** The event of a message a tool logged to its client. */
	static final Observation.Event CLIENT_LOG = Observation.Event.of("client.log",
			"A message the tool logged to its client");

	private static final DefaultConvention CONVENTION = new DefaultConvention();

	private final ObservationRegistry registry;

	ToolClientRequestObservation(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public ClientRequest run(ToolInvocation invocation, ClientRequest.Kind kind, Supplier<ClientRequest> request) {
		Context context = new Context(invocation, kind);
		Observation observation = AgentToolObservationDocumentation.TOOL_CLIENT_REQUEST
			.observation(null, CONVENTION, () -> context, this.registry)
			.parentObservation(this.registry.getCurrentObservation())
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			ClientRequest ended = request.get();
			context.outcome = ended.outcome();
			return ended;
		}
		finally {
			observation.stop();
		}
	}

	@Override
	public void logged(ToolInvocation invocation, ToolClient.Level level) {
		Observation current = this.registry.getCurrentObservation();
		if (current != null) {
			current.event(CLIENT_LOG);
		}
	}

	/**
	 * What the convention sees of a request: the call, the kind of request and, once it
	 * ended, its outcome.
	 */
	static final class Context extends Observation.Context {

		private final ToolInvocation invocation;

		private final ClientRequest.Kind kind;

		private volatile ClientRequest.@Nullable Outcome outcome;

		Context(ToolInvocation invocation, ClientRequest.Kind kind) {
			this.invocation = Objects.requireNonNull(invocation, "invocation");
			this.kind = Objects.requireNonNull(kind, "kind");
		}

		ToolInvocation invocation() {
			return this.invocation;
		}

		ClientRequest.Kind kind() {
			return this.kind;
		}

		ClientRequest.@Nullable Outcome outcome() {
			return this.outcome;
		}

	}

	/**
	 * The names and keys of a client request's observation: name {@value #NAME},
	 * contextual (span) name {@code <kind> <tool>}, keys {@link ClientRequestKeyNames}.
	 */
	static final class DefaultConvention implements ObservationConvention<Context> {

		/** The observation (and timer) name. */
		static final String NAME = "agent.tool.client.request";

		@Override
		public String getName() {
			return NAME;
		}

		@Override
		public String getContextualName(Context context) {
			return context.kind().tagValue() + " " + context.invocation().toolName();
		}

		@Override
		public KeyValues getLowCardinalityKeyValues(Context context) {
			ClientRequest.Outcome outcome = context.outcome();
			return KeyValues.of(ClientRequestKeyNames.TOOL_NAME.withValue(context.invocation().toolName()),
					ClientRequestKeyNames.KIND.withValue(context.kind().tagValue()),
					ClientRequestKeyNames.OUTCOME.withValue((outcome != null) ? outcome.tagValue() : "unknown"));
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof Context;
		}

	}

}
