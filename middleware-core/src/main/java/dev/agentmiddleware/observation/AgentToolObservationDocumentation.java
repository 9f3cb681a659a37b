package dev.agentmiddleware.observation;

import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of a tool call and of the requests its tool makes to its client: their
 * names, the keys they are tagged with, and the event of a message a tool logs to its
 * client ({@code client.log}, a counter {@code agent.tool.call.client.log} with the meter
 * handler).
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

		@Override
		public Observation.Event[] getEvents() {
			return new Observation.Event[] { ToolClientRequestObservation.CLIENT_LOG };
		}

	},

	/**
	 * One request a tool made to its client during a call (elicitation, sampling), a
	 * child of the call's observation. With Spring Boot's observation handlers it yields
	 * a timer {@code agent.tool.client.request}, a long-task timer
	 * {@code agent.tool.client.request.active} (the requests waiting for an answer) and a
	 * span named {@code <kind> <tool>}, such as {@code elicitation book_table}.
	 */
	TOOL_CLIENT_REQUEST {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return ToolClientRequestObservation.DefaultConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return ClientRequestKeyNames.values();
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
		 * The simple class name of the exception the call ended with, or {@code none}: a
		 * tag of the timer, added by Micrometer's meter handler from the observation's
		 * error, not a key of the observation (Micrometer Tracing would mark every span
		 * with such a key as failed).
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
	 * The keys of a client request's observation, all with few values.
	 */
	public enum ClientRequestKeyNames implements KeyName {

		/**
		 * The name of the tool that made the request.
		 */
		TOOL_NAME {
			@Override
			public String asString() {
				return "agent.tool.name";
			}
		},

		/**
		 * The kind of request: {@code elicitation} or {@code sampling}.
		 */
		KIND {
			@Override
			public String asString() {
				return "agent.tool.client.request.kind";
			}
		},

		/**
		 * How it ended: {@code accept}, {@code decline}, {@code cancel} (what the user
		 * did with an elicitation), {@code answered} (sampling), {@code unavailable} (the
		 * client cannot serve it), {@code cancelled} (the call was cancelled while it
		 * waited) or {@code failed}; {@code unknown} while it waits.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "agent.tool.client.request.outcome";
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
