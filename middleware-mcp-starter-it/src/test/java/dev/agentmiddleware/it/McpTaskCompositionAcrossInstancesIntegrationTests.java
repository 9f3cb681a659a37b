package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task tool that gathers its input before its task
 * ({@code @AgentTool(inputBeforeTask = true)}) on two instances of one application on one
 * PostgreSQL schema, every request on the other instance: the first round on one, the
 * round that escalates on the other (which runs the task), and the task's question,
 * answer and result through the first.
 */
@RequiresService(TestService.POSTGRES)
class McpTaskCompositionAcrossInstancesIntegrationTests {

	private static final String CAPABILITIES = "{\"elicitation\":{},\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}";

	private static TwoInstancesOnPostgres instances;

	private static ConfigurableApplicationContext instanceA;

	private static ConfigurableApplicationContext instanceB;

	@BeforeAll
	static void startTwoInstancesOnOneDatabase() {
		instances = TwoInstancesOnPostgres
			.start(List.of(FreshMcpApplication.class, McpSessionOwnerIntegrationTests.PrincipalFromHeader.class,
					McpTaskCompositionIntegrationTests.Tools.class));
		instanceA = instances.a();
		instanceB = instances.b();
	}

	@AfterAll
	static void stopInstances() {
		if (instances != null) {
			instances.close();
		}
	}

	@Test
	void roundsTaskQuestionAndResultEachOnTheOtherInstance() throws Exception {
		JsonNode first = call(instanceA, null, null);
		assertThat(first.get("resultType").asString()).isEqualTo("input_required");
		assertThat(first.has("taskId")).isFalse();
		JsonNode created = call(instanceB, "{\"user_name\":{\"action\":\"accept\",\"content\":{\"name\":\"Alice\"}}}",
				first.get("requestState").asString());
		assertThat(created.get("resultType").asString()).isEqualTo("task");
		assertThat(created.has("requestState")).isFalse();
		String taskId = created.get("taskId").asString();

		JsonNode parked = awaitStatus(instanceA, taskId, "input_required");
		String key = parked.get("inputRequests").properties().iterator().next().getKey();
		JsonNode ack = result(
				post(instanceA, "tasks/update", taskId, "{\"taskId\":\"" + taskId + "\",\"inputResponses\":{\"" + key
						+ "\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}," + meta() + "}"));
		assertThat(ack.get("resultType").asString()).isEqualTo("complete");
		JsonNode done = awaitStatus(instanceA, taskId, "completed");
		assertThat(done.get("result").get("content").get(0).get("text").asString()).isEqualTo("Hello, Alice!");
	}

	private static JsonNode awaitStatus(ConfigurableApplicationContext instance, String taskId, String status) {
		JsonNode[] last = new JsonNode[1];
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
			last[0] = result(post(instance, "tasks/get", taskId, "{\"taskId\":\"" + taskId + "\"," + meta() + "}"));
			return status.equals(last[0].get("status").asString());
		});
		return last[0];
	}

	// One tools/call of greet_then_confirm: its answer is the last message of its SSE
	// stream
	private static JsonNode call(ConfigurableApplicationContext instance, String inputResponses, String requestState)
			throws Exception {
		StringBuilder params = new StringBuilder("{\"name\":\"greet_then_confirm\",\"arguments\":{}");
		if (inputResponses != null) {
			params.append(",\"inputResponses\":").append(inputResponses);
		}
		if (requestState != null) {
			params.append(",\"requestState\":\"").append(requestState).append("\"");
		}
		params.append(",").append(meta()).append("}");
		String body = post(instance, "tools/call", "greet_then_confirm", params.toString()).body();
		List<String> data = body.lines()
			.filter((line) -> line.startsWith("data:"))
			.map((line) -> line.substring("data:".length()))
			.toList();
		JsonNode response = JsonMapper.shared().readTree(data.isEmpty() ? body : data.get(data.size() - 1));
		assertThat(response.has("result")).as(body).isTrue();
		return response.get("result");
	}

	private static HttpResponse<String> post(ConfigurableApplicationContext instance, String method, String name,
			String params) throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", "2026-07-28");
		headers.put("Mcp-Method", method);
		headers.put("Mcp-Name", name);
		headers.put("X-Test-User", "ada");
		return new RawMcpHttp(Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.server.port")))
			.post(headers, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
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

}
