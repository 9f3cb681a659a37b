package dev.agentmiddleware.sample.weather;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link TripTools}, called directly with a client of the test's own or with
 * the client of a call that no MCP client made.
 */
class TripToolsTests {

	private final TripTools tools = new TripTools();

	@Test
	void withoutAnMcpClientPlansThreeDaysAtABalancedPace() {
		String plan = this.tools.planTrip("Lisbon", ToolClient.applicationLog("plan_trip"));
		assertThat(plan).startsWith("A balanced trip of 3 days to Lisbon:\nDay 1 (")
			.contains("\nDay 3 (")
			.doesNotContain("Day 4")
			.doesNotContain("In short");
	}

	@Test
	void asksTheUserWithDefaultsAndAChoiceAndHasTheModelSumUp() {
		AnsweringClient client = new AnsweringClient((question) -> new ElicitationResult(
				ElicitationResult.Action.ACCEPT, Map.of("days", 7, "pace", "packed")));
		String plan = this.tools.planTrip(" Seattle ", client);

		assertThat(plan).startsWith("A packed trip of 7 days to Seattle:\nDay 1 (light rain, 12 °C): the city museum, ")
			.contains("\nDay 6 (no forecast): ")
			.endsWith("\nIn short: summed up");
		assertThat(client.questions).singleElement().satisfies((question) -> {
			assertThat(question.message())
				.isEqualTo("Planning a trip to Seattle: how many days (1 to 14), and at what pace?");
			assertThat(question.requestedSchema()).containsEntry("required", List.of("days", "pace"));
		});
		assertThat(client.samplings).singleElement()
			.satisfies((sampling) -> assertThat(sampling.messages().get(0).text())
				.startsWith("Sum up this plan:\nA packed trip"));
		assertThat(client.logs).containsExactly("INFO looking up the weather in Seattle",
				"WARNING light rain in Seattle today: the plan starts indoors",
				"ERROR no forecast for days 6 to 7: they are planned without the weather");
	}

	@Test
	void plansNothingWhenTheUserDeclines() {
		AnsweringClient client = new AnsweringClient(
				(question) -> new ElicitationResult(ElicitationResult.Action.DECLINE, Map.of()));
		assertThat(this.tools.planTrip("Lisbon", client)).isEqualTo("No trip planned: the user chose decline");
		assertThat(client.samplings).isEmpty();
	}

	@Test
	void refusesATripLongerThanTwoWeeks() {
		AnsweringClient client = new AnsweringClient((question) -> new ElicitationResult(
				ElicitationResult.Action.ACCEPT, Map.of("days", 15, "pace", "relaxed")));
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.planTrip("Lisbon", client))
			.withMessage("A trip lasts 1 to 14 days at a pace of [relaxed, balanced, packed], not 15 relaxed");
	}

	// A client whose user answers as the test says and whose model always says the same
	private static final class AnsweringClient implements ToolClient {

		private final Function<ElicitationRequest, ElicitationResult> user;

		private final List<String> logs = new ArrayList<>();

		private final List<ElicitationRequest> questions = new ArrayList<>();

		private final List<SamplingRequest> samplings = new ArrayList<>();

		AnsweringClient(Function<ElicitationRequest, ElicitationResult> user) {
			this.user = user;
		}

		@Override
		public void log(Level level, String message) {
			this.logs.add(level + " " + message);
		}

		@Override
		public boolean canElicit() {
			return true;
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			this.questions.add(request);
			return this.user.apply(request);
		}

		@Override
		public boolean canSample() {
			return true;
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			this.samplings.add(request);
			return new SamplingResult("summed up", "test-model", "endTurn");
		}

	}

}
