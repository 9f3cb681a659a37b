package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The tasks extension of MCP {@code 2026-07-28} ({@code io.modelcontextprotocol/tasks})
 * over real HTTP: a call of a tool declared {@code @AgentTool(taskSupport = ...)} answers
 * a task, which the client polls to its result, cancels, or answers through
 * {@code tasks/update} when the tool asks its client; without the extension the tasks
 * methods are refused and the tool runs as any other.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpTasksIntegrationTests.Tools.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class McpTasksIntegrationTests {

	private static final String VERSION = "2026-07-28";

	private static final String WITH_TASKS = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{},"
			+ "\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";

	private static final String WITHOUT_TASKS = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	@LocalServerPort
	int port;

	@Autowired
	TaskTools tools;

	@Test
	void callOfATaskSupportingToolAnswersATaskPolledToItsResult() throws Exception {
		JsonNode created = result(call("summarize", "{\"text\":\"hello tasks\"}", WITH_TASKS));
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		assertThat(created.has("task")).isFalse();
		assertThat(created.get("status").asString()).isEqualTo("working");
		assertThat(created.get("ttlMs").isIntegralNumber()).isTrue();
		assertThat(created.get("pollIntervalMs").isIntegralNumber()).isTrue();
		assertThat(created.has("ttl") || created.has("pollInterval") || created.has("requestState")).isFalse();
		String taskId = created.get("taskId").asString();
		JsonNode done = awaitStatus(taskId, "completed");
		assertThat(done.get("resultType").asString()).isEqualTo("complete");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("11 characters");
		assertThat(done.get("result").get("isError").asBoolean()).isFalse();
	}

	@Test
	void toolsListShowsTheTaskSupportOfEachTool() throws Exception {
		JsonNode tools = result(post("tools/list", null, "{" + WITH_TASKS + "}")).get("tools");
		Map<String, String> supports = new HashMap<>();
		tools.forEach((tool) -> supports.put(tool.get("name").asString(),
				tool.has("execution") ? tool.get("execution").get("taskSupport").asString() : "absent"));
		assertThat(supports).containsEntry("summarize", "optional")
			.containsEntry("hold_as_task", "required")
			.containsEntry("utcOffset", "absent");
	}

	@Test
	void discoverAdvertisesTheExtensionAndNoTasksCapability() throws Exception {
		JsonNode capabilities = result(post("server/discover", null, "{" + WITHOUT_TASKS + "}")).get("capabilities");
		assertThat(capabilities.get("extensions").has("io.modelcontextprotocol/tasks")).isTrue();
		assertThat(capabilities.has("tasks")).isFalse();
	}

	@Test
	void cancelledTaskSettlesCancelledAndItsCallIsInterrupted() throws Exception {
		String taskId = result(call("hold_as_task", "{}", WITH_TASKS)).get("taskId").asString();
		assertThat(this.tools.awaitHolding()).isTrue();
		JsonNode ack = result(post("tasks/cancel", taskId, "{\"taskId\":\"" + taskId + "\"," + WITH_TASKS + "}"));
		assertThat(ack.properties()).hasSize(1);
		assertThat(ack.get("resultType").asString()).isEqualTo("complete");
		assertThat(awaitStatus(taskId, "cancelled").has("result")).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(this.tools::wasInterrupted);
		JsonNode again = result(post("tasks/cancel", taskId, "{\"taskId\":\"" + taskId + "\"," + WITH_TASKS + "}"));
		assertThat(again.get("resultType").asString()).isEqualTo("complete");
	}

	@Test
	void taskThatAsksItsClientWaitsInInputRequiredUntilTasksUpdateAnswers() throws Exception {
		String taskId = result(call("confirm", "{\"what\":\"the report\"}", WITH_TASKS)).get("taskId").asString();
		JsonNode parked = awaitStatus(taskId, "input_required");
		assertThat(parked.get("inputRequests").properties()).hasSize(1);
		String key = parked.get("inputRequests").properties().iterator().next().getKey();
		JsonNode request = parked.get("inputRequests").get(key);
		assertThat(request.get("method").asString()).isEqualTo("elicitation/create");
		assertThat(request.get("params").get("message").asString()).isEqualTo("Send the report?");
		JsonNode ack = result(
				post("tasks/update", taskId, "{\"taskId\":\"" + taskId + "\",\"inputResponses\":{\"unknown\":{},\""
						+ key + "\":{\"action\":\"accept\",\"content\":{\"confirm\":true}}}," + WITH_TASKS + "}"));
		assertThat(ack.get("resultType").asString()).isEqualTo("complete");
		assertThat(ack.has("status")).isFalse();
		JsonNode done = awaitStatus(taskId, "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("sent the report");
		assertThat(done.has("inputRequests")).isFalse();
	}

	@Test
	void withoutTheExtensionTasksMethodsAreRefusedAndAnOptionalTaskToolRunsAtOnce() throws Exception {
		JsonNode refused = missingCapability(
				post("tasks/get", "some-task", "{\"taskId\":\"some-task\"," + WITHOUT_TASKS + "}").body());
		assertThat(refused.get("code").asInt()).isEqualTo(-32021);
		assertThat(
				refused.get("data").get("requiredCapabilities").get("extensions").has("io.modelcontextprotocol/tasks"))
			.isTrue();
		HttpResponse<String> synchronous = call("summarize", "{\"text\":\"abc\"}", WITHOUT_TASKS);
		assertThat(synchronous.body()).contains("3 characters").doesNotContain("taskId");
		JsonNode required = missingCapability(call("hold_as_task", "{}", WITHOUT_TASKS).body());
		assertThat(required.get("code").asInt()).isEqualTo(-32021);
		assertThat(this.tools.holdingStarted()).isFalse();
	}

	@Test
	void unknownTaskIsInvalidParamsAndMcpNameMustBeTheTaskId() throws Exception {
		JsonNode unknown = RawMcpHttp
			.errorOf(post("tasks/get", "no-such-task", "{\"taskId\":\"no-such-task\"," + WITH_TASKS + "}").body());
		assertThat(unknown.get("code").asInt()).isEqualTo(-32602);
		HttpResponse<String> mismatch = post("tasks/get", "another-task",
				"{\"taskId\":\"no-such-task\"," + WITH_TASKS + "}");
		assertThat(mismatch.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(mismatch).get("code").asInt()).isEqualTo(-32020);
	}

	private JsonNode awaitStatus(String taskId, String status) {
		JsonNode[] last = new JsonNode[1];
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
			last[0] = result(post("tasks/get", taskId, "{\"taskId\":\"" + taskId + "\"," + WITH_TASKS + "}"));
			return status.equals(last[0].get("status").asString());
		});
		return last[0];
	}

	private HttpResponse<String> call(String tool, String arguments, String meta) throws Exception {
		return post("tools/call", tool, "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "," + meta + "}");
	}

	private HttpResponse<String> post(String method, String name, String params) throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", VERSION);
		headers.put("Mcp-Method", method);
		if (name != null) {
			headers.put("Mcp-Name", name);
		}
		return new RawMcpHttp(this.port).post(headers,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	// The error of a refusal for a missing capability, which names the extension (so
	// RawMcpHttp.errorOf, which refuses SDK names, does not apply)
	private static JsonNode missingCapability(String body) {
		assertThat(body).hasSizeLessThan(400).doesNotContain("Exception").doesNotContain("java.");
		return JsonMapper.shared().readTree(body).get("error");
	}

	// The result of a JSON response, or of the last event of an SSE one
	private static JsonNode result(HttpResponse<String> response) {
		String body = response.body();
		String json = body.lines()
			.filter((line) -> line.startsWith("data:"))
			.reduce((first, second) -> second)
			.map((line) -> line.substring("data:".length()))
			.orElse(body);
		JsonNode message = JsonMapper.shared().readTree(json);
		assertThat(message.has("result")).as(body).isTrue();
		return message.get("result");
	}

	// A class-based proxy wraps the tool bean: the test talks to it through methods
	public static class TaskTools {

		private final CountDownLatch holding = new CountDownLatch(1);

		private final CountDownLatch interrupted = new CountDownLatch(1);

		public boolean awaitHolding() throws InterruptedException {
			return this.holding.await(10, TimeUnit.SECONDS);
		}

		public boolean holdingStarted() {
			return this.holding.getCount() == 0;
		}

		public boolean wasInterrupted() {
			return this.interrupted.getCount() == 0;
		}

		@AgentTool(description = "Counts the characters of a text", safety = SafetyLevel.SAFE, openWorld = false,
				taskSupport = TaskSupport.OPTIONAL)
		public String summarize(@AgentToolParam(description = "The text") String text) {
			return text.length() + " characters";
		}

		@AgentTool(description = "Holds until cancelled", safety = SafetyLevel.SAFE, openWorld = false,
				tags = "interruptible", taskSupport = TaskSupport.REQUIRED)
		public String holdAsTask() {
			this.holding.countDown();
			try {
				Thread.sleep(30_000);
				return "held";
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		}

		@AgentTool(description = "Sends something once the user confirms", safety = SafetyLevel.SAFE, openWorld = false,
				taskSupport = TaskSupport.OPTIONAL)
		public String confirm(@AgentToolParam(description = "What to send") String what, ToolClient client) {
			ElicitationResult answer = client.elicit(ElicitationRequest.builder("Send " + what + "?")
				.property("confirm", Map.of("type", "boolean"))
				.required("confirm")
				.build());
			return Boolean.TRUE.equals(answer.content().get("confirm")) ? "sent " + what : "kept " + what;
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		TaskTools taskTools() {
			return new TaskTools();
		}

	}

}
