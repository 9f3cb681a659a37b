package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multi round-trip requests of MCP {@code 2026-07-28} ({@code input_required}) over real
 * HTTP, against two separately started instances that share the {@code requestState} key:
 * a tool that asks its user and then its client's model through {@link ToolClient} runs
 * again on each retry, each round on the other instance, and does its side effect once; a
 * tampered, expired, replayed or foreign state is refused with {@code -32602}; an
 * approval of a {@code 2026-07-28} call is not asked through {@code input_required}.
 */
class StatelessMcpInputRequiredIntegrationTests {

	private static final String KEY = "dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=";

	private static final String USER_HEADER = "X-Test-User";

	private static final String CAPABILITIES = "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{}}";

	private static ConfigurableApplicationContext instanceA;

	private static ConfigurableApplicationContext instanceB;

	@BeforeAll
	static void start() {
		instanceA = start("a");
		instanceB = start("b");
	}

	@AfterAll
	static void stop() {
		if (instanceA != null) {
			instanceA.close();
		}
		if (instanceB != null) {
			instanceB.close();
		}
	}

	@Test
	void aToolThatAsksItsUserThenItsModelFinishesOverThreeRoundsOnAlternatingInstances() throws Exception {
		int before = bookings();
		JsonNode first = call(instanceA, "alice", "plan_trip", "{}", null, null);
		assertThat(first.get("resultType").asString()).isEqualTo("input_required");
		assertThat(first.get("inputRequests").get("who").get("method").asString()).isEqualTo("elicitation/create");
		assertThat(first.get("inputRequests").get("who").get("params").get("message").asString())
			.isEqualTo("Who travels?");
		assertThat(first.get("inputRequests").get("who").get("params").has("_meta")).isFalse();

		JsonNode second = call(instanceB, "alice", "plan_trip", "{}",
				"{\"who\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}",
				first.get("requestState").asString());
		assertThat(second.get("resultType").asString()).isEqualTo("input_required");
		assertThat(second.get("inputRequests").properties()).singleElement().satisfies((request) -> {
			assertThat(request.getKey()).isEqualTo("idea");
			assertThat(request.getValue().get("method").asString()).isEqualTo("sampling/createMessage");
		});
		assertThat(bookings()).as("no side effect before the tool has its answers").isEqualTo(before);

		JsonNode third = call(instanceA, "alice", "plan_trip", "{}",
				"{\"idea\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"Lisbon\"},"
						+ "\"model\":\"m\",\"stopReason\":\"endTurn\"}}",
				second.get("requestState").asString());
		assertThat(third.get("resultType").asString()).isEqualTo("complete");
		assertThat(third.get("content").get(0).get("text").asString()).isEqualTo("Ada goes to Lisbon");
		assertThat(bookings()).isEqualTo(before + 1);
	}

	@Test
	void aTamperedStateIsRefused() throws Exception {
		JsonNode first = call(instanceA, "alice", "plan_trip", "{}", null, null);
		String state = first.get("requestState").asString();
		String tampered = state.substring(0, 10) + ((state.charAt(10) == 'A') ? 'B' : 'A') + state.substring(11);
		JsonNode error = error(instanceB, "alice", "plan_trip", "{}", ANSWER, tampered);
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.get("message").asString()).contains("integrity check");
	}

	@Test
	void aReplayedStateIsRefused() throws Exception {
		JsonNode first = call(instanceA, "alice", "plan_trip", "{}", null, null);
		String state = first.get("requestState").asString();
		assertThat(call(instanceA, "alice", "plan_trip", "{}", ANSWER, state).get("resultType").asString())
			.isEqualTo("input_required");
		JsonNode error = error(instanceA, "alice", "plan_trip", "{}", ANSWER, state);
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.get("message").asString()).contains("already used");
	}

	@Test
	void aStateOfAnotherPrincipalOrOtherArgumentsIsRefused() throws Exception {
		String state = call(instanceA, "alice", "plan_trip", "{}", null, null).get("requestState").asString();
		JsonNode otherUser = error(instanceB, "bob", "plan_trip", "{}", ANSWER, state);
		assertThat(otherUser.get("code").asInt()).isEqualTo(-32602);
		assertThat(otherUser.get("message").asString()).contains("another request");
		JsonNode otherArguments = error(instanceB, "alice", "plan_trip", "{\"note\":\"x\"}", ANSWER, state);
		assertThat(otherArguments.get("message").asString()).contains("another request");
	}

	@Test
	void anExpiredStateIsRefused() throws Exception {
		String state = call(instanceA, "alice", "plan_trip", "{}", null, null).get("requestState").asString();
		advanceClocks(Duration.ofMinutes(11));
		JsonNode error = error(instanceB, "alice", "plan_trip", "{}", ANSWER, state);
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.get("message").asString()).contains("expired");
	}

	@Test
	void malformedInputResponsesAreInvalidParamsAndAWrongKeyAsksAgain() throws Exception {
		JsonNode notAnObject = error(instanceA, "alice", "plan_trip", "{}", "[1]", null);
		assertThat(notAnObject.get("code").asInt()).isEqualTo(-32602);
		assertThat(notAnObject.get("message").asString()).contains("inputResponses must be an object");
		JsonNode wrongShape = error(instanceA, "alice", "plan_trip", "{}", "{\"who\":{\"action\":\"maybe\"}}", null);
		assertThat(wrongShape.get("code").asInt()).isEqualTo(-32602);
		assertThat(wrongShape.get("message").asString()).contains("'who' is not a result of elicitation/create");
		JsonNode wrongKey = call(instanceA, "alice", "plan_trip", "{}",
				"{\"whom\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}", null);
		assertThat(wrongKey.get("resultType").asString()).isEqualTo("input_required");
		assertThat(wrongKey.get("inputRequests").has("who")).isTrue();
	}

	@Test
	void anUndeclaredCapabilityIsUnavailableToTheToolAndAnswersMissingRequiredClientCapability() throws Exception {
		// The tool asks for elicitation, which the request did not declare, and does not
		// catch the failure: -32021, never an input request the client cannot answer
		JsonNode response = response(instanceA, "alice", "plan_trip", "{}", null, null, "{\"sampling\":{}}");
		JsonNode error = response.get("error");
		assertThat(error).as(response.toString()).isNotNull();
		assertThat(error.get("code").asInt()).isEqualTo(-32021);
		assertThat(error.get("data").get("requiredCapabilities").has("elicitation")).isTrue();
	}

	@Test
	void anApprovalIsAskedOfTheClientsUserThroughInputRequiredAndTheRetryDecidesIt() throws Exception {
		JsonNode asked = call(instanceB, "alice", "wire_money", "{}", null, null);
		assertThat(asked.get("resultType").asString()).isEqualTo("input_required");
		JsonNode question = asked.get("inputRequests").get("approval");
		assertThat(question.get("method").asString()).isEqualTo("elicitation/create");
		assertThat(question.get("params").get("message").asString()).contains("wire_money");
		JsonNode approved = call(instanceB, "alice", "wire_money", "{}",
				"{\"approval\":{\"action\":\"accept\",\"content\":{\"decision\":\"approve\"}}}",
				asked.get("requestState").asString());
		assertThat(approved.get("resultType").asString()).isEqualTo("complete");
		assertThat(approved.get("content").get(0).get("text").asString()).isEqualTo("wired");
	}

	private static final String ANSWER = "{\"who\":{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}}";

	private static JsonNode call(ConfigurableApplicationContext instance, String user, String tool, String arguments,
			String inputResponses, String requestState) throws Exception {
		return call(instance, user, tool, arguments, inputResponses, requestState, CAPABILITIES);
	}

	private static JsonNode call(ConfigurableApplicationContext instance, String user, String tool, String arguments,
			String inputResponses, String requestState, String capabilities) throws Exception {
		JsonNode response = response(instance, user, tool, arguments, inputResponses, requestState, capabilities);
		assertThat(response.has("error")).as(response.toString()).isFalse();
		return response.get("result");
	}

	private static JsonNode error(ConfigurableApplicationContext instance, String user, String tool, String arguments,
			String inputResponses, String requestState) throws Exception {
		JsonNode response = response(instance, user, tool, arguments, inputResponses, requestState, CAPABILITIES);
		assertThat(response.has("error")).as(response.toString()).isTrue();
		return response.get("error");
	}

	// One tools/call of the revision; its answer is the last message of its SSE stream,
	// or the JSON body of an error refused before the stream
	private static JsonNode response(ConfigurableApplicationContext instance, String user, String tool,
			String arguments, String inputResponses, String requestState, String capabilities) throws Exception {
		StringBuilder params = new StringBuilder("{\"name\":\"" + tool + "\",\"arguments\":" + arguments);
		if (inputResponses != null) {
			params.append(",\"inputResponses\":").append(inputResponses);
		}
		if (requestState != null) {
			params.append(",\"requestState\":\"").append(requestState).append("\"");
		}
		params.append(",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",")
			.append("\"io.modelcontextprotocol/clientCapabilities\":")
			.append(capabilities)
			.append("}}");
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", "2026-07-28");
		headers.put("Mcp-Method", "tools/call");
		headers.put("Mcp-Name", tool);
		headers.put(USER_HEADER, user);
		RawMcpHttp mcp = new RawMcpHttp(
				Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.server.port")));
		HttpResponse<String> response = mcp.post(headers,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":" + params + "}");
		String body = response.body();
		List<String> data = body.lines()
			.filter((line) -> line.startsWith("data:"))
			.map((line) -> line.substring("data:".length()))
			.toList();
		return JsonMapper.shared().readTree(data.isEmpty() ? body : data.get(data.size() - 1));
	}

	private static int bookings() {
		return instanceA.getBean(TripTools.class).bookings() + instanceB.getBean(TripTools.class).bookings();
	}

	// The instances' clocks move together, as the clocks of two machines do
	private static void advanceClocks(Duration duration) {
		instanceA.getBean(McpSessionLimitsIntegrationTests.MovableClock.class).advance(duration);
		instanceB.getBean(McpSessionLimitsIntegrationTests.MovableClock.class).advance(duration);
	}

	private static ConfigurableApplicationContext start(String name) {
		return new SpringApplicationBuilder(FreshMcpApplication.class,
				McpSessionOwnerIntegrationTests.PrincipalFromHeader.class,
				McpSessionLimitsIntegrationTests.TestClock.class, Tools.class)
			.initializers((context) -> context.getBeanFactory()
				.registerSingleton(
						McpSessionsAcrossInstancesIntegrationTests.ExcludeOtherTestsConfigurations.class.getName(),
						new McpSessionsAcrossInstancesIntegrationTests.ExcludeOtherTestsConfigurations()))
			.properties("server.port=0", "spring.main.banner-mode=off",
					"agent.middleware.mcp.request-state.secret=" + KEY,
					"agent.middleware.approval.providers=mcp-elicitation,link,queue",
					"agent.middleware.approval.exempt-tools=plan_trip", "spring.application.name=instance-" + name)
			.run();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		TripTools tripTools() {
			return new TripTools();
		}

	}

	public static class TripTools {

		private final AtomicInteger bookings = new AtomicInteger();

		public int bookings() {
			return this.bookings.get();
		}

		/**
		 * Asks who travels, then the client's model where to: its side effect comes after
		 * both.
		 * @param client the call's client
		 * @return the trip
		 */
		@AgentTool(name = "plan_trip", description = "Plans a trip", safety = SafetyLevel.SAFE, readOnly = true,
				openWorld = false)
		public String planTrip(@AgentToolParam(required = false) String note, ToolClient client) {
			Object who = client
				.elicit(ElicitationRequest.builder("Who travels?")
					.text("name", "Name", null)
					.required("name")
					.id("who")
					.build())
				.content()
				.get("name");
			String where = client.sample(SamplingRequest.builder().user("Where to?").maxTokens(20).id("idea").build())
				.text();
			this.bookings.incrementAndGet();
			return who + " goes to " + where;
		}

		/**
		 * Needs approval (dangerous).
		 * @return {@code wired}
		 */
		@AgentTool(name = "wire_money", description = "Wires money", safety = SafetyLevel.DANGEROUS)
		public String wireMoney() {
			return "wired";
		}

	}

}
