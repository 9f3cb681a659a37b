package dev.agentmiddleware.observation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.ToolClientLog;
import dev.agentmiddleware.observation.AgentToolObservationConvention.AgentToolObservationContext;
import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;
import dev.agentmiddleware.observation.ObservationMiddleware.ToolCallMeterObservationHandler;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

class ObservationMiddlewareTests {

	private static final ToolDescriptor WEATHER = ToolDescriptor.builder("get_weather").build();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	@Test
	void aSuccessfulCallIsOneStoppedObservationTaggedWithToolOutcomeAndSource() throws Exception {
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), (invocation) -> "Sunny");
		ToolInvocation call = ToolInvocation.builder(WEATHER)
			.sessionId("conversation-7")
			.source(InvocationSource.MCP)
			.build();
		assertThat(pipeline.call(call)).isEqualTo("Sunny");
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsEqualTo(1)
			.hasSingleObservationThat()
			.hasNameEqualTo("agent.tool.call")
			.hasContextualNameEqualTo("execute_tool get_weather")
			.hasBeenStarted()
			.hasBeenStopped()
			.doesNotHaveError()
			.hasLowCardinalityKeyValue("agent.tool.name", "get_weather")
			.hasLowCardinalityKeyValue("agent.tool.outcome", "succeeded")
			.doesNotHaveLowCardinalityKeyValueWithKey("error")
			.hasLowCardinalityKeyValue("agent.tool.source", "mcp")
			.hasHighCardinalityKeyValue("agent.session.id", SessionFingerprint.of("conversation-7"));
	}

	@Test
	void aToolFailureIsFailedWithTheErrorTypeAndPropagatesUnchanged() throws Exception {
		IllegalStateException failure = new IllegalStateException("service down");
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), (invocation) -> {
			throw failure;
		});
		assertThatIllegalStateException().isThrownBy(() -> pipeline.call(call())).isSameAs(failure);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasBeenStopped()
			.hasError(failure)
			.hasLowCardinalityKeyValue("agent.tool.outcome", "failed")
			.doesNotHaveLowCardinalityKeyValueWithKey("error");
	}

	@Test
	void aDenialIsDenied() {
		assertFailedCallObservedAs(new ToolDeniedException("get_weather", "policy", "not on the allow list"), "denied",
				"ToolDeniedException");
	}

	@Test
	void aRateLimitRejectionIsRateLimited() {
		assertFailedCallObservedAs(
				new ToolRateLimitedException("get_weather", "rate-limit", "5 calls per minute", Duration.ofSeconds(3)),
				"rate_limited", "ToolRateLimitedException");
	}

	@Test
	void aTimeoutIsTimedOut() {
		assertFailedCallObservedAs(new ToolTimeoutException("get_weather", "timeout", Duration.ofSeconds(2)),
				"timed_out", "ToolTimeoutException");
	}

	@Test
	void aResultReportedAsCachedByAnInnerLayerIsCached() throws Exception {
		ToolMiddleware cache = ToolMiddleware.named("cache", (tool, next) -> (invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "Sunny (cached)";
		});
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), cache, (invocation) -> "Sunny");
		assertThat(pipeline.call(call())).isEqualTo("Sunny (cached)");
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasLowCardinalityKeyValue("agent.tool.outcome", "cached")
			.doesNotHaveLowCardinalityKeyValueWithKey("error");
	}

	@Test
	void aResultFromALayerThatSkippedTheToolIsShortCircuited() throws Exception {
		ToolMiddleware canned = ToolMiddleware.named("canned", (tool, next) -> (invocation) -> "Always sunny");
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), canned, (invocation) -> "Sunny");
		assertThat(pipeline.call(call())).isEqualTo("Always sunny");
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasLowCardinalityKeyValue("agent.tool.outcome", "short_circuited");
	}

	@Test
	void everyCallIsItsOwnObservation() throws Exception {
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), (invocation) -> "Sunny");
		for (int i = 0; i < 3; i++) {
			pipeline.call(call());
		}
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("agent.tool.call", 3);
	}

	@Test
	void sharesTheTraceOfTheObserverTierSoBothReportTheSameOutcome() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		ToolCallObserver observer = new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		};
		ToolMiddleware cache = ToolMiddleware.named("cache", (tool, next) -> (invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "cached";
		});
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(observer).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(WEATHER, (invocation) -> "Sunny")
				.middleware(List.of(ObservationMiddleware.of(this.registry), cache))
				.observers(observers)
				.build();
			pipeline.call(call());
		}
		assertThat(records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.CACHED);
			assertThat(record.decidedBy()).isEqualTo("cache");
		});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasLowCardinalityKeyValue("agent.tool.outcome", "cached");
	}

	@Test
	void nestsUnderTheCurrentObservationAndTheToolRunsInItsScope() throws Exception {
		AtomicReference<Observation> seenByTool = new AtomicReference<>();
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), (invocation) -> {
			seenByTool.set(this.registry.getCurrentObservation());
			Observation.createNotStarted("downstream.http", this.registry).observe(() -> {
			});
			return "Sunny";
		});
		Observation parent = Observation.start("spring.ai.tool", this.registry);
		try (Observation.Scope scope = parent.openScope()) {
			pipeline.call(call());
		}
		finally {
			parent.stop();
		}
		assertThat(seenByTool.get()).isNotNull();
		assertThat(seenByTool.get().getContext().getName()).isEqualTo("agent.tool.call");
		assertThat(seenByTool.get().getContextView().getParentObservation()).isSameAs(parent);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("agent.tool.call")
			.that()
			.hasParentObservationEqualTo(parent);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("downstream.http")
			.that()
			.hasParentObservationEqualTo(seenByTool.get());
		assertThat(this.registry.getCurrentObservation()).isNull();
	}

	@Test
	void aNoopRegistryLeavesThePipelineWithoutTheLayer() {
		ToolHandler next = (invocation) -> "Sunny";
		assertThat(ObservationMiddleware.of(ObservationRegistry.NOOP).wrap(WEATHER, next)).isSameAs(next);
		assertThat(ObservationMiddleware.of(ObservationRegistry.create()).wrap(WEATHER, next))
			.as("a registry without handlers is a no-op one")
			.isSameAs(next);
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(ObservationRegistry.NOOP), next);
		assertThat(pipeline.layers()).containsExactly("get_weather");
	}

	@Test
	void toolsLeftOutByThePredicateAreNotObserved() throws Exception {
		ObservationMiddleware observation = ObservationMiddleware.builder()
			.registry(this.registry)
			.policies((tool) -> tool.name().equals("get_weather") ? null : ObservationPolicy.OBSERVED)
			.build();
		ToolPipeline pipeline = pipeline(observation, (invocation) -> "Sunny");
		assertThat(pipeline.layers()).containsExactly("get_weather");
		pipeline.call(call());
		TestObservationRegistryAssert.assertThat(this.registry).doesNotHaveAnyObservation();
	}

	@Test
	void aCustomConventionChangesTheNameAndKeys() throws Exception {
		AgentToolObservationConvention convention = new DefaultAgentToolObservationConvention("ai.tool.execution") {
			@Override
			public KeyValues getLowCardinalityKeyValues(AgentToolObservationContext context) {
				return super.getLowCardinalityKeyValues(context).and("tenant", "acme");
			}
		};
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(this.registry).convention(convention).build(),
				(invocation) -> "Sunny");
		pipeline.call(call());
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasNameEqualTo("ai.tool.execution")
			.hasLowCardinalityKeyValue("tenant", "acme")
			.hasLowCardinalityKeyValue("agent.tool.outcome", "succeeded");
	}

	@Test
	void theSameObservationYieldsATimerTaggedWithTheOutcome() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(observations), (invocation) -> "Sunny");
		pipeline.call(call());
		pipeline.call(call());
		assertThat(meters.get("agent.tool.call")
			.tag("agent.tool.name", "get_weather")
			.tag("agent.tool.outcome", "succeeded")
			.tag("error", "none")
			.timer()
			.count()).isEqualTo(2);
		assertThat(meters.get("agent.tool.call.active").longTaskTimer().activeTasks()).isZero();
	}

	@Test
	void withAMeterRegistryACacheHitIsACachedTimerAndNoObservation() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ToolMiddleware cache = ToolMiddleware.named("cache", (tool, next) -> (invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "Sunny (cached)";
		});
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(this.registry).meterRegistry(meters).build(), cache,
				(invocation) -> "Sunny");
		for (int i = 0; i < 3; i++) {
			assertThat(pipeline.call(call())).isEqualTo("Sunny (cached)");
		}
		TestObservationRegistryAssert.assertThat(this.registry).doesNotHaveAnyObservation();
		assertThat(meters.get("agent.tool.call")
			.tag("agent.tool.name", "get_weather")
			.tag("agent.tool.outcome", "cached")
			.tag("error", "none")
			.tag("agent.tool.source", "java")
			.timers()).singleElement().satisfies((timer) -> assertThat(timer.count()).isEqualTo(3));
		assertThat(meters.find("agent.tool.call.active").longTaskTimer()).isNull();
	}

	@Test
	void withAMeterRegistryADenialIsATimerTaggedWithTheErrorAndNoObservation() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ToolDeniedException denial = new ToolDeniedException("get_weather", "policy", "not on the allow list");
		ToolMiddleware deciding = ToolMiddleware.named("deciding", (tool, next) -> (invocation) -> {
			throw denial;
		});
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(this.registry).meterRegistry(meters).build(), deciding,
				(invocation) -> "Sunny");
		assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> pipeline.call(call())).isSameAs(denial);
		TestObservationRegistryAssert.assertThat(this.registry).doesNotHaveAnyObservation();
		assertThat(meters.get("agent.tool.call")
			.tag("agent.tool.outcome", "denied")
			.tag("error", "ToolDeniedException")
			.timer()
			.count()).isOne();
	}

	@Test
	void withAMeterRegistryACallThatReachesTheToolIsOneObservationNestedAndScopedAsBefore() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		AtomicReference<Observation> seenByTool = new AtomicReference<>();
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(this.registry).meterRegistry(meters).build(),
				ToolMiddleware.named("pass", (tool, next) -> next::handle), (invocation) -> {
					seenByTool.set(this.registry.getCurrentObservation());
					return "Sunny";
				});
		Observation parent = Observation.start("agent.run", this.registry);
		try (Observation.Scope scope = parent.openScope()) {
			assertThat(pipeline.call(call())).isEqualTo("Sunny");
		}
		parent.stop();
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("agent.tool.call", 1)
			.hasObservationWithNameEqualTo("agent.tool.call")
			.that()
			.hasBeenStopped()
			.hasParentObservationEqualTo(parent)
			.hasLowCardinalityKeyValue("agent.tool.outcome", "succeeded");
		assertThat(seenByTool.get()).isNotNull().isNotSameAs(parent);
		assertThat(seenByTool.get().getContext()).isInstanceOf(AgentToolObservationContext.class);
		assertThat(meters.find("agent.tool.call").timers()).isEmpty();
	}

	@Test
	void withAMeterRegistryARetriedToolIsStillOneObservationThatSeesTheLastError() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		IllegalStateException failure = new IllegalStateException("service down");
		ToolMiddleware twice = ToolMiddleware.named("twice", (tool, next) -> (invocation) -> {
			try {
				return next.handle(invocation);
			}
			catch (IllegalStateException ex) {
				return next.handle(invocation);
			}
		});
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(this.registry).meterRegistry(meters).build(), twice,
				(invocation) -> {
					throw failure;
				});
		assertThatIllegalStateException().isThrownBy(() -> pipeline.call(call())).isSameAs(failure);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasBeenStopped()
			.hasError(failure)
			.hasLowCardinalityKeyValue("agent.tool.outcome", "failed");
	}

	@Test
	void theToolCallMeterHandlerTimesToolCallsWithoutALongTaskTimerAndLeavesOtherObservationsToTheDefault()
			throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig()
			.observationHandler(
					new io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler(
							new ToolCallMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters)));
		ToolPipeline pipeline = pipeline(
				ObservationMiddleware.builder().registry(observations).meterRegistry(meters).build(),
				(invocation) -> "Sunny");
		pipeline.call(call());
		Observation.start("other.work", observations).stop();
		assertThat(meters.get("agent.tool.call").tag("agent.tool.outcome", "succeeded").timer().count()).isOne();
		assertThat(meters.find("agent.tool.call.active").longTaskTimer()).isNull();
		assertThat(meters.get("other.work").timer().count()).isOne();
		assertThat(meters.get("other.work.active").longTaskTimer()).isNotNull();
	}

	@Test
	void theToolCallMeterHandlerRecordsIntoTheTimersTheDefaultHandlerRegistersOnePerOutcomeAndError() throws Exception {
		SimpleMeterRegistry ours = new SimpleMeterRegistry();
		callTwiceThenFail(new ToolCallMeterObservationHandler(ours));
		SimpleMeterRegistry defaults = new SimpleMeterRegistry();
		callTwiceThenFail(new DefaultMeterObservationHandler(defaults,
				DefaultMeterObservationHandler.IgnoredMeters.LONG_TASK_TIMER));
		assertThat(timers(ours)).isEqualTo(timers(defaults)).hasSize(2).containsValues(2L, 1L);
		assertThat(ours.get("agent.tool.call").tag("error", "none").timer().count()).isEqualTo(2);
		assertThat(ours.get("agent.tool.call").tag("error", "IllegalStateException").timer().count()).isOne();
	}

	private static void callTwiceThenFail(ObservationHandler<Observation.Context> meterHandler) throws Exception {
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(meterHandler);
		AtomicInteger calls = new AtomicInteger();
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(observations), (invocation) -> {
			if (calls.incrementAndGet() > 2) {
				throw new IllegalStateException("down");
			}
			return "Sunny";
		});
		pipeline.call(call());
		pipeline.call(call());
		assertThatIllegalStateException().isThrownBy(() -> pipeline.call(call()));
	}

	private static Map<String, Long> timers(SimpleMeterRegistry meters) {
		Map<String, Long> counts = new TreeMap<>();
		meters.getMeters()
			.forEach((meter) -> counts.put(meter.getId().getName()
					+ meter.getId().getTags().stream().map((tag) -> tag.getKey() + "=" + tag.getValue()).toList(),
					((io.micrometer.core.instrument.Timer) meter).count()));
		return counts;
	}

	@Test
	void eachRequestToTheClientIsAnObservationNestedUnderTheCallsAndTaggedWithHowItEnded() throws Exception {
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), ObservationMiddlewareTests::askTwice);
		assertThat(pipeline.call(clientCall())).isEqualTo("accept, unavailable");
		assertClientRequestsNestedUnderTheCall();
	}

	@Test
	void withAMeterRegistryEachRequestToTheClientIsNestedUnderTheExecutedCallsObservation() throws Exception {
		ToolPipeline pipeline = pipeline(ObservationMiddleware.builder()
			.registry(this.registry)
			.meterRegistry(new SimpleMeterRegistry())
			.build(), ObservationMiddlewareTests::askTwice);
		assertThat(pipeline.call(clientCall())).isEqualTo("accept, unavailable");
		assertClientRequestsNestedUnderTheCall();
	}

	private void assertClientRequestsNestedUnderTheCall() {
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("agent.tool.call", 1)
			.hasNumberOfObservationsWithNameEqualTo("agent.tool.client.request", 2)
			.hasHandledContextsThatSatisfy((contexts) -> {
				Observation.Context call = contexts.stream()
					.filter((context) -> context instanceof AgentToolObservationContext)
					.findFirst()
					.orElseThrow();
				List<Observation.Context> requests = contexts.stream()
					.filter((context) -> "agent.tool.client.request".equals(context.getName()))
					.toList();
				assertThat(requests).extracting(Observation.Context::getContextualName)
					.containsExactly("elicitation get_weather", "sampling get_weather");
				assertThat(requests)
					.extracting((request) -> request.getLowCardinalityKeyValue("agent.tool.name").getValue(),
							(request) -> request.getLowCardinalityKeyValue("agent.tool.client.request.kind").getValue(),
							(request) -> request.getLowCardinalityKeyValue("agent.tool.client.request.outcome")
								.getValue())
					.containsExactly(tuple("get_weather", "elicitation", "accept"),
							tuple("get_weather", "sampling", "unavailable"));
				assertThat(requests).allSatisfy((request) -> {
					assertThat(request.getParentObservation()).isNotNull();
					assertThat(request.getParentObservation().getContextView()).isSameAs(call);
					assertThat(request.getAllKeyValues().stream().map((keyValue) -> keyValue.getValue()))
						.noneMatch((value) -> value.contains("Which day") || value.contains("secret"));
				});
			});
	}

	@Test
	void withTheMeterHandlerEachRequestIsATimerAndEachMessageLoggedToTheClientACounterOfTheCall() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(observations), (invocation) -> {
			ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
			client.log(ToolClient.Level.INFO, "looking for the secret forecast");
			client.log(ToolClient.Level.DEBUG, "still looking");
			return askTwice(invocation);
		});
		pipeline.call(clientCall());
		assertThat(meters.get("agent.tool.client.request")
			.tag("agent.tool.name", "get_weather")
			.tag("agent.tool.client.request.kind", "elicitation")
			.tag("agent.tool.client.request.outcome", "accept")
			.timer()
			.count()).isOne();
		assertThat(meters.get("agent.tool.client.request")
			.tag("agent.tool.client.request.kind", "sampling")
			.tag("agent.tool.client.request.outcome", "unavailable")
			.timer()
			.count()).isOne();
		assertThat(meters.get("agent.tool.call.client.log").tag("agent.tool.name", "get_weather").counter().count())
			.isEqualTo(2);
	}

	@Test
	void withoutAnObservationMiddlewareTheClientsRequestsAreNotObserved() throws Exception {
		ToolPipeline pipeline = pipeline(ToolMiddleware.named("pass", (tool, next) -> next::handle),
				ObservationMiddlewareTests::askTwice);
		assertThat(pipeline.call(clientCall())).isEqualTo("accept, unavailable");
		TestObservationRegistryAssert.assertThat(this.registry).doesNotHaveAnyObservation();
	}

	// A tool that asks its user (who accepts) and its model (which the client cannot
	// serve), as an @AgentTool method
	// gets its client.
	private static String askTwice(ToolInvocation invocation) {
		ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
		ElicitationResult answer = client.elicit(ElicitationRequest.builder("Which day?").build());
		try {
			client.sample(SamplingRequest.of("Summarise the secret forecast", 20));
			return "answered";
		}
		catch (ToolClientUnavailableException ex) {
			return answer.action().name().toLowerCase(Locale.ROOT) + ", unavailable";
		}
	}

	private static ToolInvocation clientCall() {
		return ToolInvocation.builder(WEATHER).attribute(ToolClient.ATTRIBUTE, new AcceptingClient()).build();
	}

	// The client of an MCP client that declared elicitation but not sampling.
	private static final class AcceptingClient implements ToolClient {

		@Override
		public void log(Level level, String message) {
		}

		@Override
		public boolean canElicit() {
			return true;
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			return new ElicitationResult(ElicitationResult.Action.ACCEPT, Map.of("day", "secret Tuesday"));
		}

		@Override
		public boolean canSample() {
			return false;
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			throw new ToolClientUnavailableException("get_weather", "sampling",
					"the MCP client did not declare the sampling capability");
		}

	}

	@Test
	void nameAndOrder() {
		ObservationMiddleware observation = ObservationMiddleware.builder().registry(this.registry).order(42).build();
		assertThat(observation.name()).isEqualTo("observation");
		assertThat(observation.order()).isEqualTo(42);
		assertThat(ObservationMiddleware.of(this.registry).order()).isEqualTo(100);
	}

	private void assertFailedCallObservedAs(RuntimeException failure, String outcome, String errorType) {
		ToolMiddleware deciding = ToolMiddleware.named("deciding", (tool, next) -> (invocation) -> {
			throw failure;
		});
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		this.registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		ToolPipeline pipeline = pipeline(ObservationMiddleware.of(this.registry), deciding, (invocation) -> "Sunny");
		assertThatExceptionOfType(failure.getClass()).isThrownBy(() -> pipeline.call(call())).isSameAs(failure);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasSingleObservationThat()
			.hasBeenStopped()
			.hasError(failure)
			.hasLowCardinalityKeyValue("agent.tool.outcome", outcome)
			.doesNotHaveLowCardinalityKeyValueWithKey("error");
		// The timer's error tag comes from the observation's error
		assertThat(meters.get("agent.tool.call")
			.tag("agent.tool.outcome", outcome)
			.tag("error", errorType)
			.timer()
			.count()).isEqualTo(1);
	}

	private static ToolPipeline pipeline(ToolMiddleware middleware, ToolHandler terminal) {
		return ToolPipeline.builder(WEATHER, terminal).middleware(middleware).build();
	}

	private static ToolPipeline pipeline(ToolMiddleware outer, ToolMiddleware inner, ToolHandler terminal) {
		return ToolPipeline.builder(WEATHER, terminal).middleware(List.of(outer, inner)).build();
	}

	private static ToolInvocation call() {
		return ToolInvocation.builder(WEATHER).argument("city", "Lisbon").build();
	}

}
