package dev.agentmiddleware.observation;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.agentmiddleware.observation.AgentToolObservationConvention.AgentToolObservationContext;
import dev.agentmiddleware.observation.AgentToolObservationDocumentation.HighCardinalityKeyNames;
import dev.agentmiddleware.observation.AgentToolObservationDocumentation.LowCardinalityKeyNames;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * Names and tags the observation of a tool call. Implement it (or extend
 * {@link DefaultAgentToolObservationConvention}) to change the metric name or the keys;
 * in Spring Boot, declare it as a bean. <pre>{@code
 * class TenantToolCallConvention extends DefaultAgentToolObservationConvention {
 *     public KeyValues getLowCardinalityKeyValues(AgentToolObservationContext context) {
 *         return super.getLowCardinalityKeyValues(context)
 *             .and("tenant", String.valueOf(context.getInvocation().principal()));
 *     }
 * }
 * }</pre>
 */
public interface AgentToolObservationConvention extends ObservationConvention<AgentToolObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof AgentToolObservationContext;
	}

	/**
	 * What a {@link AgentToolObservationConvention} sees of a tool call: the invocation,
	 * and once it ended its outcome (the exception, if any, is {@link #getError()}).
	 */
	public static class AgentToolObservationContext extends Observation.Context {

		private final ToolInvocation invocation;

		private volatile @Nullable CallOutcome outcome;

		/**
		 * Creates the context of one call.
		 * @param invocation the call
		 */
		public AgentToolObservationContext(ToolInvocation invocation) {
			this.invocation = Objects.requireNonNull(invocation, "invocation");
		}

		/**
		 * The call being observed.
		 * @return the invocation, as the observation middleware received it
		 */
		public ToolInvocation getInvocation() {
			return this.invocation;
		}

		/**
		 * How the call ended.
		 * @return the outcome, or {@code null} while the call runs
		 */
		public @Nullable CallOutcome getOutcome() {
			return this.outcome;
		}

		/**
		 * Sets how the call ended; done by the middleware before the observation stops.
		 * @param outcome the outcome
		 */
		public void setOutcome(CallOutcome outcome) {
			this.outcome = Objects.requireNonNull(outcome, "outcome");
		}

	}

	/**
	 * The default names and keys of a tool call's observation, as listed in
	 * {@code AgentToolObservationDocumentation}: name {@code agent.tool.call}, contextual
	 * (span) name {@code execute_tool <tool>}. Extend it to add or change keys.
	 */
	public static class DefaultAgentToolObservationConvention implements AgentToolObservationConvention {

		/** The default observation name. */
		public static final String NAME = "agent.tool.call";

		private static final String NONE = "none";

		private static final KeyValue OUTCOME_UNKNOWN = LowCardinalityKeyNames.OUTCOME.withValue("unknown");

		private static final KeyValue ERROR_NONE = LowCardinalityKeyNames.ERROR.withValue(NONE);

		private static final KeyValue[] OUTCOMES = outcomeKeyValues();

		private static final KeyValue[] SOURCES = sourceKeyValues();

		private final String name;

		// Key values of calls without an error, by tool, then by outcome (none while
		// running) and source; only for this
		// class itself, since a subclass may compute its keys from anything.
		// Unsynchronized slots: a race builds the same
		// immutable key values twice.
		private final ConcurrentMap<String, @Nullable KeyValues[]> keyValuesByTool = new ConcurrentHashMap<>();

		private final ConcurrentMap<String, String> contextualNames = new ConcurrentHashMap<>();

		private final boolean cachesKeyValues = getClass() == DefaultAgentToolObservationConvention.class;

		/**
		 * Creates the convention with the name {@value #NAME}.
		 */
		public DefaultAgentToolObservationConvention() {
			this(NAME);
		}

		/**
		 * Creates the convention with another observation name.
		 * @param name the observation (and timer) name
		 */
		public DefaultAgentToolObservationConvention(String name) {
			this.name = name;
		}

		@Override
		public String getName() {
			return this.name;
		}

		@Override
		public String getContextualName(AgentToolObservationContext context) {
			return this.contextualNames.computeIfAbsent(context.getInvocation().toolName(),
					(tool) -> "execute_tool " + tool);
		}

		@Override
		public KeyValues getLowCardinalityKeyValues(AgentToolObservationContext context) {
			ToolInvocation invocation = context.getInvocation();
			if (context.getError() != null || !this.cachesKeyValues) {
				return lowCardinalityKeyValues(context);
			}
			// Without an error the keys depend only on the tool, the outcome and the
			// source: built once, since
			// sorting them for every start and stop of every call is a good part of an
			// observation's cost.
			KeyValues[] byOutcomeAndSource = this.keyValuesByTool.computeIfAbsent(invocation.toolName(),
					(tool) -> new KeyValues[(CallOutcome.values().length + 1) * SOURCES.length]);
			CallOutcome outcome = context.getOutcome();
			int index = ((outcome != null) ? outcome.ordinal() + 1 : 0) * SOURCES.length
					+ invocation.source().ordinal();
			KeyValues keyValues = byOutcomeAndSource[index];
			if (keyValues == null) {
				keyValues = lowCardinalityKeyValues(context);
				byOutcomeAndSource[index] = keyValues;
			}
			return keyValues;
		}

		private KeyValues lowCardinalityKeyValues(AgentToolObservationContext context) {
			ToolInvocation invocation = context.getInvocation();
			// No error key: Micrometer Tracing turns a key named error into a span error
			// (with an exception event built on every call, even "none"); the failure is
			// the observation's error, which the meter handler tags the timer with and
			// the tracing handler records on the span
			return KeyValues.of(LowCardinalityKeyNames.TOOL_NAME.withValue(invocation.toolName()), outcome(context),
					SOURCES[invocation.source().ordinal()]);
		}

		@Override
		public KeyValues getHighCardinalityKeyValues(AgentToolObservationContext context) {
			// No call id: a span has ids of its own, and formatting one on every call is
			// not free.
			return KeyValues.of(HighCardinalityKeyNames.SESSION_ID
				.withValue(SessionFingerprint.of(context.getInvocation().sessionId())));
		}

		/**
		 * The outcome key value.
		 * @param context the context
		 * @return the outcome, {@code unknown} while the call runs
		 */
		protected KeyValue outcome(AgentToolObservationContext context) {
			CallOutcome outcome = context.getOutcome();
			return (outcome != null) ? OUTCOMES[outcome.ordinal()] : OUTCOME_UNKNOWN;
		}

		/**
		 * The error key value: the value of the timer's {@code error} tag, which
		 * Micrometer's meter handler adds from the observation's error. Not a key of the
		 * observation itself, since Micrometer Tracing marks a span with a key named
		 * {@code error} as failed.
		 * @param context the context
		 * @return the simple class name of the exception, or {@code none}
		 */
		protected KeyValue error(AgentToolObservationContext context) {
			Throwable error = context.getError();
			if (error == null) {
				return ERROR_NONE;
			}
			String simpleName = error.getClass().getSimpleName();
			return LowCardinalityKeyNames.ERROR
				.withValue(simpleName.isEmpty() ? error.getClass().getName() : simpleName);
		}

		private static KeyValue[] outcomeKeyValues() {
			CallOutcome[] outcomes = CallOutcome.values();
			KeyValue[] keyValues = new KeyValue[outcomes.length];
			for (CallOutcome outcome : outcomes) {
				keyValues[outcome.ordinal()] = LowCardinalityKeyNames.OUTCOME.withValue(outcome.tagValue());
			}
			return keyValues;
		}

		private static KeyValue[] sourceKeyValues() {
			InvocationSource[] sources = InvocationSource.values();
			KeyValue[] keyValues = new KeyValue[sources.length];
			for (InvocationSource source : sources) {
				keyValues[source.ordinal()] = LowCardinalityKeyNames.SOURCE
					.withValue(source.name().toLowerCase(Locale.ROOT));
			}
			return keyValues;
		}

	}

}
