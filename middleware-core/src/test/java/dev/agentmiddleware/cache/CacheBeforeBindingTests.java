package dev.agentmiddleware.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.binding.JsonArgumentBinder;
import dev.agentmiddleware.binding.ToolParameter;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.ArgumentBindingMiddleware;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The cache right inside the binding step answers a repeated call from its arguments as
 * sent, without binding them again, and changes nothing else: what is refused, what is
 * decided outside or between, what is invalidated.
 */
class CacheBeforeBindingTests {

	private static final ToolDescriptor PLAN_TRIP = ToolDescriptor.builder("plan_trip").readOnly(true).build();

	private static final String TRIP = "{\"trip\":{\"from\":\"Lisbon\",\"to\":\"Porto\",\"stops\":[\"Obidos\",\"Coimbra\"]}}";

	private static final String SAME_TRIP_SPELT_OTHERWISE = "{ \"trip\" : {\"stops\":[\"Obidos\",\"Coimbra\"],"
			+ "\"to\":\"Porto\", \"from\":\"Lisbon\"} }";

	private final JsonArgumentBinder binder = new JsonArgumentBinder("plan_trip",
			List.of(new ToolParameter("trip", Trip.class, "the trip", true)), JsonMapper.shared(),
			ArgumentLimits.DEFAULTS);

	private final AtomicInteger bindings = new AtomicInteger();

	private final AtomicInteger runs = new AtomicInteger();

	private final ToolResultCache results = ToolResultCache.create();

	private final List<ToolCallRecord> records = new ArrayList<>();

	private final ToolCallObservers observers = ToolCallObservers.builder().observer(new ToolCallObserver() {

		@Override
		public void onToolCall(ToolCallRecord record) {
			CacheBeforeBindingTests.this.records.add(record);
		}

		@Override
		public boolean synchronous() {
			return true;
		}

	}).build();

	private final ToolHandler planTrip = (invocation) -> {
		Trip trip = (Trip) invocation.argument("trip");
		return trip.from() + " to " + trip.to() + " via " + trip.stops().size() + " stops #"
				+ this.runs.incrementAndGet();
	};

	@AfterEach
	void close() {
		this.observers.close();
	}

	@Test
	void aRepeatedCallIsAnsweredWithoutBindingItsArgumentsAgain() throws Exception {
		ToolPipeline pipeline = pipeline();
		for (int i = 0; i < 5; i++) {
			assertThat(pipeline.call(call("s1", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #1");
		}
		assertThat(this.runs).hasValue(1);
		assertThat(this.bindings).as("the miss, and the first hit, which remembers what they bound to").hasValue(2);
		assertThat(this.records).extracting(ToolCallRecord::outcome)
			.containsExactly(CallOutcome.SUCCEEDED, CallOutcome.CACHED, CallOutcome.CACHED, CallOutcome.CACHED,
					CallOutcome.CACHED);
	}

	@Test
	void observersAreToldOfTheBoundArgumentsOfACallAnsweredBeforeBinding() throws Exception {
		ToolPipeline pipeline = pipeline();
		for (int i = 0; i < 3; i++) {
			pipeline.call(call("s1", TRIP));
		}
		Trip trip = new Trip("Lisbon", "Porto", List.of("Obidos", "Coimbra"));
		assertThat(this.records).hasSize(3)
			.allSatisfy((record) -> assertThat(record.invocation().arguments()).isEqualTo(Map.of("trip", trip)))
			.allSatisfy((record) -> assertThat(record.invocation().attribute(UnboundArguments.ATTRIBUTE)).isNull());
	}

	@Test
	void twoSpellingsThatBindToTheSameValuesShareOneEntry() throws Exception {
		ToolPipeline pipeline = pipeline();
		pipeline.call(call("s1", TRIP));
		for (int i = 0; i < 3; i++) {
			assertThat(pipeline.call(call("s1", SAME_TRIP_SPELT_OTHERWISE)))
				.isEqualTo("Lisbon to Porto via 2 stops #1");
			assertThat(pipeline.call(call("s1", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #1");
		}
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void invalidArgumentsAreRefusedOnEveryCallWithTheSameErrorAndNeverAnswered() throws Exception {
		ToolPipeline pipeline = pipeline();
		String unknownProperty = "{\"trip\":{\"from\":\"Lisbon\",\"to\":\"Porto\",\"stops\":[],\"speed\":3}}";
		List<String> messages = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(InvalidToolArgumentsException.class)
				.isThrownBy(() -> pipeline.call(call("s1", unknownProperty)))
				.satisfies((ex) -> messages.add(ex.getMessage()));
		}
		assertThat(messages).hasSize(3).containsOnly(messages.get(0));
		assertThat(messages.get(0)).contains("plan_trip").contains("trip");
		assertThat(this.bindings).hasValue(3);
		assertThat(this.runs).hasValue(0);
		assertThat(this.records).extracting(ToolCallRecord::outcome).containsOnly(CallOutcome.INVALID_ARGUMENTS);
	}

	@Test
	void anotherSessionIsNotAnsweredFromTheEntryOfTheFirst() throws Exception {
		ToolPipeline pipeline = pipeline();
		pipeline.call(call("s1", TRIP));
		pipeline.call(call("s1", TRIP));
		pipeline.call(call("s1", TRIP));
		assertThat(pipeline.call(call("s2", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #2");
		assertThat(pipeline.call(call("s2", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #2");
		assertThat(pipeline.call(call(null, TRIP))).as("no session: bypasses the cache")
			.isEqualTo("Lisbon to Porto via 2 stops #3");
	}

	@Test
	void invalidatingTheArgumentsAlsoReachesCallsAnsweredBeforeBinding() throws Exception {
		ToolPipeline pipeline = pipeline();
		pipeline.call(call("s1", TRIP));
		pipeline.call(call("s1", TRIP));
		this.results.invalidate("plan_trip", Map.of("trip", new Trip("Lisbon", "Porto", List.of("Obidos", "Coimbra"))));
		assertThat(pipeline.call(call("s1", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #2");
		assertThat(pipeline.call(call("s1", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #2");
		this.results.apply(CacheInvalidation.arguments("plan_trip",
				ArgumentsFingerprint.of(Map.of("trip", new Trip("Lisbon", "Porto", List.of("Obidos", "Coimbra"))))
					.sha256()));
		assertThat(pipeline.call(call("s1", SAME_TRIP_SPELT_OTHERWISE))).isEqualTo("Lisbon to Porto via 2 stops #3");
	}

	@Test
	void aLayerOutsideTheBindingStepStillDecidesBeforeACallIsAnsweredUnbound() throws Exception {
		AtomicBoolean deny = new AtomicBoolean();
		List<Object> seen = new ArrayList<>();
		ToolPipeline pipeline = ToolPipeline.builder(PLAN_TRIP, this.planTrip)
			.middleware(List.of(gate(deny, seen), ArgumentBindingMiddleware.INSTANCE, cache()))
			.observers(this.observers)
			.build();
		for (int i = 0; i < 3; i++) {
			assertThat(pipeline.call(call("s1", TRIP))).isEqualTo("Lisbon to Porto via 2 stops #1");
		}
		deny.set(true);
		assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> pipeline.call(call("s1", TRIP)));
		assertThat(this.bindings).as("the miss and the first hit only").hasValue(2);
		assertThat(this.records).extracting(ToolCallRecord::outcome)
			.containsExactly(CallOutcome.SUCCEEDED, CallOutcome.CACHED, CallOutcome.CACHED, CallOutcome.DENIED);
	}

	@Test
	void aLayerBetweenBindingAndCacheSeesEveryCallBoundAndDecidesBeforeTheCache() throws Exception {
		AtomicBoolean deny = new AtomicBoolean();
		List<Object> seen = new ArrayList<>();
		ToolPipeline pipeline = ToolPipeline.builder(PLAN_TRIP, this.planTrip)
			.middleware(List.of(ArgumentBindingMiddleware.INSTANCE, gate(deny, seen), cache()))
			.observers(this.observers)
			.build();
		for (int i = 0; i < 3; i++) {
			pipeline.call(call("s1", TRIP));
		}
		deny.set(true);
		assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> pipeline.call(call("s1", TRIP)));
		assertThat(seen).hasSize(4).allSatisfy((trip) -> assertThat(trip).isInstanceOf(Trip.class));
		assertThat(this.bindings).hasValue(4);
		assertThat(this.runs).hasValue(1);
	}

	// Refuses every call once told to; records the trip argument of each call it sees.
	private static ToolMiddleware gate(AtomicBoolean deny, List<Object> seen) {
		return new ToolMiddleware() {

			@Override
			public String name() {
				return "gate";
			}

			@Override
			public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
				return (invocation) -> {
					seen.add(invocation.argument("trip"));
					if (deny.get()) {
						throw new ToolDeniedException(tool.name(), "gate", "denied");
					}
					return next.handle(invocation);
				};
			}

		};
	}

	@Test
	void argumentsGivenWithoutTheirFormAsSentAreBoundOnEveryCall() throws Exception {
		ToolPipeline pipeline = pipeline();
		for (int i = 0; i < 3; i++) {
			pipeline.call(ToolInvocation.builder(PLAN_TRIP)
				.sessionId("s1")
				.attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(() -> bind(TRIP)))
				.build());
		}
		assertThat(this.runs).hasValue(1);
		assertThat(this.bindings).hasValue(3);
	}

	@Test
	void argumentsAsSentInAMapAreAnsweredWithoutBindingAndACallerChangingItsMapLaterMatchesNothing() throws Exception {
		ToolPipeline pipeline = pipeline();
		Map<String, Object> stops = new HashMap<>(
				Map.of("from", "Lisbon", "to", "Porto", "stops", new ArrayList<>(List.of("Obidos", "Coimbra"))));
		Map<String, Object> sent = new HashMap<>(Map.of("trip", stops));
		for (int i = 0; i < 3; i++) {
			assertThat(pipeline.call(mapCall("s1", sent))).isEqualTo("Lisbon to Porto via 2 stops #1");
		}
		assertThat(this.bindings).hasValue(2);
		stops.put("to", "Faro");
		assertThat(pipeline.call(mapCall("s1", sent))).isEqualTo("Lisbon to Faro via 2 stops #2");
	}

	private ToolPipeline pipeline() {
		return ToolPipeline.builder(PLAN_TRIP, this.planTrip)
			.middleware(List.of(ArgumentBindingMiddleware.INSTANCE, cache()))
			.observers(this.observers)
			.build();
	}

	private CacheMiddleware cache() {
		return CacheMiddleware.builder().cache(this.results).build();
	}

	private ToolInvocation call(@Nullable String session, String json) {
		return ToolInvocation.builder(PLAN_TRIP)
			.sessionId(session)
			.attribute(UnboundArguments.ATTRIBUTE, UnboundArguments.of(json, () -> bind(json)))
			.build();
	}

	private ToolInvocation mapCall(String session, Map<String, Object> sent) {
		return ToolInvocation.builder(PLAN_TRIP)
			.sessionId(session)
			.attribute(UnboundArguments.ATTRIBUTE, UnboundArguments.of(sent, () -> {
				this.bindings.incrementAndGet();
				return this.binder.bindValues(sent);
			}))
			.build();
	}

	private Map<String, Object> bind(String json) {
		this.bindings.incrementAndGet();
		return this.binder.bind(json);
	}

	/**
	 * A structured argument.
	 *
	 * @param from where it starts
	 * @param to where it ends
	 * @param stops the stops on the way
	 */
	public record Trip(String from, String to, List<String> stops) {
	}

}
