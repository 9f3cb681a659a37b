package dev.agentmiddleware.observation;

import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of a tool call: its name, and the keys it is tagged with.
 *
 * <p>
 * With Spring Boot's observation handlers, one observation yields a timer
 * {@code agent.tool.call}, a long-task timer {@code agent.tool.call.active} and, when a
 * tracer is present, a span named {@code execute_tool <tool>}. <pre>{@code
 * registry.get("agent.tool.call")
 *     .tag("agent.tool.name", "get_weather")
 *     .tag("agent.tool.outcome", "cached")
 *     .timer().count();
 * }</pre>
 */
enum AgentToolObservationDocumentation implements ObservationDocumentation {

	/**
	 * One call of a tool through its middleware chain.
	 */
	TOOL_CALL {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultAgentToolObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeyNames.values();
		}

	};

	/**
	 * Keys with few values, used as metric tags.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * The tool's name; {@code unknown} for every call of a tool that does not exist
		 * (whose names are unbounded).
		 */
		TOOL_NAME {
			@Override
			public String asString() {
				return "agent.tool.name";
			}
		},

		/**
		 * How the call ended: {@code succeeded}, {@code failed}, {@code denied},
		 * {@code rate_limited}, {@code timed_out}, {@code cached},
		 * {@code short_circuited}, {@code invalid_arguments} or {@code unknown_tool};
		 * {@code unknown} while it runs.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "agent.tool.outcome";
			}
		},

		/**
		 * The simple class name of the exception the call ended with, or {@code none}.
		 */
		ERROR {
			@Override
			public String asString() {
				return "error";
			}
		},

		/**
		 * Where the call came from: {@code java}, {@code spring_ai}, {@code mcp} or
		 * {@code other}.
		 */
		SOURCE {
			@Override
			public String asString() {
				return "agent.tool.source";
			}
		}

	}

	/**
	 * Keys with many values, used on spans only.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The {@link dev.agentmiddleware.tool.SessionFingerprint fingerprint} of the
		 * call's session (conversation, thread or MCP session; never its id), or
		 * {@code none}.
		 */
		SESSION_ID {
			@Override
			public String asString() {
				return "agent.session.id";
			}
		}

	}

}
