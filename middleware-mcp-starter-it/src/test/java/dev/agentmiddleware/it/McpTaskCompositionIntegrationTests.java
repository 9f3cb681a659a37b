package dev.agentmiddleware.it;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.tool.ElicitationRequest;
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
 * The composition of {@code input_required} round trips with the tasks extension of MCP
 * {@code 2026-07-28} over real HTTP, for tools declared
 * {@code @AgentTool(taskSupport = ..., inputBeforeTask = true)}: the first round asks by
 * {@code input_required} (no task), the round that answers the tool's question answers
 * the task (no {@code requestState}), whose result carries the answer; a question asked
 * after that parks the task; a tampered state on the escalating round is refused before
 * the tool runs; an approval asked of the client's user comes first, then the task.
 */
@SpringBootTest(
		classes = { FreshMcpApplication.class, McpSessionOwnerIntegrationTests.PrincipalFromHeader.class,
				McpTaskCompositionIntegrationTests.Tools.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "agent.middleware.approval.providers=mcp-elicitation,link,queue",
				"spring.ai.mcp.server.streamable-http.keep-alive-interval=100ms" })
class McpTaskCompositionIntegrationTests {

	private static final String USER_HEADER = "X-Test-User";

	private static final String CAPABILITIES = "{\"elicitation\":{},\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";

	private static final String ALICE = "{\"user_name\":{\"action\":\"accept\",\"content\":{\"name\":\"Alice\"}}}";

	@LocalServerPort
	int port;

	@Autowired
	ComposedTools tools;

	@Test
	void firstRoundAsksByInputRequiredAndCreatesNoTask() throws Exception {
		JsonNode first = call("ada", "greet_as_task", null, null);
		assertThat(first.get("resultType").asString()).isEqualTo("input_required");
		assertThat(first.has("taskId")).isFalse();
		assertThat(first.has("status")).isFalse();
		JsonNode question = first.get("inputRequests").get("user_name");
		assertThat(question.get("method").asString()).isEqualTo("elicitation/create");
		assertThat(question.get("params").get("message").asString()).isEqualTo("What is your name?");
		assertThat(first.get("requestState").asString()).isNotEmpty();
	}

	@Test
	void roundThatAnswersTheQuestionAnswersATaskWhoseResultCarriesTheAnswer() throws Exception {
		JsonNode first = call("ada", "greet_as_task", null, null);
		JsonNode created = call("ada", "greet_as_task", ALICE, first.get("requestState").asString());
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		assertThat(created.get("taskId").asString()).isNotEmpty();
		assertThat(created.get("status").asString()).isIn("working", "completed");
		assertThat(created.has("requestState")).isFalse();
		assertThat(created.has("inputRequests")).isFalse();
		JsonNode done = awaitStatus("ada", created.get("taskId").asString(), "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("Hello, Alice!");
		assertThat(done.has("requestState")).isFalse();
	}

	@Test
	void questionAskedAfterTheTaskStartedParksTheTaskUntilTasksUpdateAnswersIt() throws Exception {
		JsonNode first = call("ada", "greet_then_confirm", null, null);
		assertThat(first.get("inputRequests").properties()).singleElement()
			.satisfies((request) -> assertThat(request.getKey()).isEqualTo("user_name"));
		JsonNode created = call("ada", "greet_then_confirm", ALICE, first.get("requestState").asString());
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		String taskId = created.get("taskId").asString();
		JsonNode parked = awaitStatus("ada", taskId, "input_required");
		assertThat(parked.get("inputRequests").properties()).singleElement().satisfies((request) -> {
			assertThat(request.getValue().get("method").asString()).isEqualTo("elicitation/create");
			assertThat(request.getValue().get("params").get("message").asString()).isEqualTo("Greet Alice?");
		});
		String key = parked.get("inputRequests").properties().iterator().next().getKey();
		JsonNode ack = result(
				post("ada", "tasks/update", taskId, "{\"taskId\":\"" + taskId + "\",\"inputResponses\":{\"" + key
						+ "\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}," + meta() + "}"));
		assertThat(ack.get("resultType").asString()).isEqualTo("complete");
		JsonNode done = awaitStatus("ada", taskId, "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("Hello, Alice!");
	}

	@Test
	void tamperedStateOnTheEscalatingRoundIsRefusedBeforeTheToolRunsSoNoTaskIsCreated() throws Exception {
		String state = call("ada", "greet_as_task", null, null).get("requestState").asString();
		int runs = this.tools.runs();
		String tampered = state.substring(0, 10) + ((state.charAt(10) == 'A') ? 'B' : 'A') + state.substring(11);
		JsonNode response = response("ada", "greet_as_task", ALICE, tampered);
		assertThat(response.has("result")).as(response.toString()).isFalse();
		assertThat(response.get("error").get("code").asInt()).isEqualTo(-32602);
		// A task is created only by a run of the tool that takes the answer
		assertThat(this.tools.runs()).isEqualTo(runs);
	}

	@Test
	void taskOfAnotherPrincipalIsUnknownToTheCaller() throws Exception {
		JsonNode first = call("ada", "greet_as_task", null, null);
		String taskId = call("ada", "greet_as_task", ALICE, first.get("requestState").asString()).get("taskId")
			.asString();
		awaitStatus("ada", taskId, "completed");
		JsonNode foreign = JsonMapper.shared()
			.readTree(post("bob", "tasks/get", taskId, "{\"taskId\":\"" + taskId + "\"," + meta() + "}").body());
		assertThat(foreign.get("error").get("code").asInt()).isEqualTo(-32602);
	}

	@Test
	void approvalIsAskedByInputRequiredAndTheApprovedRoundAnswersTheTask() throws Exception {
		JsonNode asked = call("ada", "wire_as_task", null, null);
		assertThat(asked.get("resultType").asString()).isEqualTo("input_required");
		assertThat(asked.has("taskId")).isFalse();
		JsonNode question = asked.get("inputRequests").get("approval");
		assertThat(question.get("method").asString()).isEqualTo("elicitation/create");
		assertThat(question.get("params").get("message").asString()).contains("wire_as_task");
		JsonNode created = call("ada", "wire_as_task",
				"{\"approval\":{\"action\":\"accept\",\"content\":{\"decision\":\"approve\"}}}",
				asked.get("requestState").asString());
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		assertThat(created.has("requestState")).isFalse();
		JsonNode done = awaitStatus("ada", created.get("taskId").asString(), "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("wired");
	}

	@Test
	void firstRoundOfAToolThatAsksNothingAnswersItsTaskCompleted() throws Exception {
		JsonNode created = call("ada", "count_as_task", null, null);
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		assertThat(created.get("status").asString()).isEqualTo("completed");
		assertThat(created.has("requestState")).isFalse();
		JsonNode done = awaitStatus("ada", created.get("taskId").asString(), "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("counted");
	}

	@Test
	void closingTheStreamOfARoundBeforeTheCallEscalatedCancelsTheCall() throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
				+ "{\"name\":\"hold_as_task\",\"arguments\":{}," + meta() + "}}";
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream output = socket.getOutputStream();
			output.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port
					+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
					+ "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: hold_as_task\r\n"
					+ USER_HEADER + ": ada\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
					+ "\r\n\r\n" + body)
				.getBytes(StandardCharsets.UTF_8));
			output.flush();
			InputStream input = socket.getInputStream();
			byte[] head = new byte[12];
			assertThat(input.readNBytes(head, 0, head.length)).isEqualTo(12);
			assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
			assertThat(this.tools.awaitHolding()).isTrue();
		}
		// Found closed by a keep-alive comment (every 100 ms here): the call, which had
		// not escalated, is cancelled, so its handler is interrupted and no task is made
		await().atMost(Duration.ofSeconds(10)).until(this.tools::wasInterrupted);
	}

	private JsonNode awaitStatus(String user, String taskId, String status) {
		JsonNode[] last = new JsonNode[1];
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
			last[0] = result(post(user, "tasks/get", taskId, "{\"taskId\":\"" + taskId + "\"," + meta() + "}"));
			return status.equals(last[0].get("status").asString());
		});
		return last[0];
	}

	private JsonNode call(String user, String tool, String inputResponses, String requestState) throws Exception {
		JsonNode response = response(user, tool, inputResponses, requestState);
		assertThat(response.has("error")).as(response.toString()).isFalse();
		return response.get("result");
	}

	// One tools/call: its answer is the last message of its SSE stream, or the JSON body
	// of an error refused before the stream
	private JsonNode response(String user, String tool, String inputResponses, String requestState) throws Exception {
		StringBuilder params = new StringBuilder("{\"name\":\"" + tool + "\",\"arguments\":{}");
		if (inputResponses != null) {
			params.append(",\"inputResponses\":").append(inputResponses);
		}
		if (requestState != null) {
			params.append(",\"requestState\":\"").append(requestState).append("\"");
		}
		params.append(",").append(meta()).append("}");
		String body = post(user, "tools/call", tool, params.toString()).body();
		List<String> data = body.lines()
			.filter((line) -> line.startsWith("data:"))
			.map((line) -> line.substring("data:".length()))
			.toList();
		return JsonMapper.shared().readTree(data.isEmpty() ? body : data.get(data.size() - 1));
	}

	private HttpResponse<String> post(String user, String method, String name, String params) throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", "2026-07-28");
		headers.put("Mcp-Method", method);
		headers.put("Mcp-Name", name);
		headers.put(USER_HEADER, user);
		return new RawMcpHttp(this.port).post(headers,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	private static String meta() {
		return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":" + CAPABILITIES + "}";
	}

	private static JsonNode result(HttpResponse<String> response) {
		JsonNode message = JsonMapper.shared().readTree(response.body());
		assertThat(message.has("result")).as(response.body()).isTrue();
		return message.get("result");
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		ComposedTools composedTools() {
			return new ComposedTools();
		}

	}

	// A class-based proxy wraps the tool bean: the test talks to it through methods
	public static class ComposedTools {

		private final AtomicInteger runs = new AtomicInteger();

		private final CountDownLatch holding = new CountDownLatch(1);

		private final CountDownLatch interrupted = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		public int runs() {
			return this.runs.get();
		}

		public boolean awaitHolding() throws InterruptedException {
			return this.holding.await(10, TimeUnit.SECONDS);
		}

		public boolean wasInterrupted() {
			return this.interrupted.getCount() == 0;
		}

		@AgentTool(name = "greet_as_task", description = "Asks a name, then greets as a task",
				safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, taskSupport = TaskSupport.REQUIRED,
				inputBeforeTask = true)
		public String greetAsTask(ToolClient client) {
			this.runs.incrementAndGet();
			return "Hello, " + name(client) + "!";
		}

		@AgentTool(name = "greet_then_confirm", description = "Asks a name, then as a task whether to greet",
				safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, taskSupport = TaskSupport.REQUIRED,
				inputBeforeTask = true)
		public String greetThenConfirm(ToolClient client) {
			Object name = name(client);
			Object ok = client
				.elicit(ElicitationRequest.builder("Greet " + name + "?")
					.property("ok", Map.of("type", "boolean"))
					.required("ok")
					.build())
				.content()
				.get("ok");
			return Boolean.TRUE.equals(ok) ? "Hello, " + name + "!" : "Not greeted";
		}

		@AgentTool(name = "wire_as_task", description = "Wires money as a task", safety = SafetyLevel.DANGEROUS,
				taskSupport = TaskSupport.REQUIRED, inputBeforeTask = true)
		public String wireAsTask() {
			return "wired";
		}

		@AgentTool(name = "count_as_task", description = "Counts, as a task", safety = SafetyLevel.SAFE,
				readOnly = true, openWorld = false, taskSupport = TaskSupport.REQUIRED, inputBeforeTask = true)
		public String countAsTask() {
			return "counted";
		}

		@AgentTool(name = "hold_as_task", description = "Holds before it asks anything, as a task",
				safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible",
				taskSupport = TaskSupport.REQUIRED, inputBeforeTask = true)
		public String holdAsTask() {
			this.holding.countDown();
			try {
				// Released by no one: only the call's cancellation ends the wait
				return this.released.await(30, TimeUnit.SECONDS) ? "released" : "held";
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		}

		private static Object name(ToolClient client) {
			return client
				.elicit(ElicitationRequest.builder("What is your name?")
					.property("name", Map.of("type", "string"))
					.required("name")
					.id("user_name")
					.build())
				.content()
				.get("name");
		}

	}

}
