package dev.agentmiddleware.sample.chat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.sample.RawMcp;
import dev.agentmiddleware.sample.counting.CallCountingMiddleware;
import dev.agentmiddleware.thread.ThreadStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the sample app and drives {@code POST /chat} with the scripted model: every hook
 * fires, in the response and against the real tools and middleware.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ChatEndpointIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	CallCountingMiddleware callCounting;

	@Autowired
	ThreadStore threadStore;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void theScriptedConversationFiresEveryHookAndKeepsItsTodosInTheThread() throws Exception {
		long readsBefore = this.callCounting.count("read_file");
		JsonNode reply = chat("trip-1", "Plan my trip to Lisbon");
		assertThat(reply.get("conversationId").asString()).isEqualTo("trip-1");
		assertThat(reply.get("answer").asString()).startsWith("I wrote a plan");
		List<String> trace = reply.get("trace").valueStream().map(JsonNode::asString).toList();
		assertThat(trace).hasSize(18);
		assertThat(trace.get(0)).isEqualTo("iteration 1 before: the model gets 1 messages");
		assertThat(trace.get(1)).startsWith("iteration 1 after: asked for write_todos -> write_todos tool_result");
		assertThat(trace.get(5)).startsWith(
				"iteration 3 after: asked for read_file, get_weather -> read_file " + "tool_result: Trip notes");
		assertThat(trace.get(7)).contains("get_weather tool_result").contains("get_weather guarded: Not run");
		assertThat(trace.get(9)).as("a person (the demo's stand-in approver) said no")
			.startsWith("iteration 5 after: asked for delete_file -> delete_file tool_error: Call of tool "
					+ "'delete_file' was denied by approval");
		assertThat(this.workspaceFile("notes.txt")).as("the denied deletion never ran").exists();
		assertThat(trace.get(10)).as("a denial is a decision: no recovery message joins the input")
			.isEqualTo("iteration 6 before: the model gets 11 messages");
		assertThat(trace.get(11)).contains("read_file tool_error");
		assertThat(trace.get(12)).as("after a real error, the recovery hint is an extra input message")
			.isEqualTo("iteration 7 before: the model gets 14 messages");
		assertThat(trace.get(17)).isEqualTo("iteration 9 after: answered");
		assertThat(reply.get("todos").valueStream().map((todo) -> todo.get("status").asString()).toList())
			.containsExactly("done", "done", "pending");
		assertThat(this.threadStore.load("chat:trip-1").get("todos")).isInstanceOf(List.class);
		// notes.txt was read twice but reached the tool once: the second read came from
		// the cache.
		assertThat(this.callCounting.count("read_file") - readsBefore).isEqualTo(2);
	}

	@Test
	void eachConversationHasItsOwnTodoList() throws Exception {
		chat("trip-2", "hello");
		assertThat(this.threadStore.load("chat:trip-3").get("todos")).isNull();
		assertThat(this.threadStore.load("chat:trip-2").get("todos")).asList().hasSize(3);
	}

	@Test
	void aConversationIdEqualToAnMcpSessionIdLeavesThatSessionsTodosAlone() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String session = RawMcp.initialize(http, this.port);
		HttpResponse<String> written = http.send(
				RawMcp.post(this.port, session, RawMcp.toolsCall(2, "write_todos",
						"{\"todos\":[{\"id\":\"m1\",\"text\":\"The MCP client's own item\",\"status\":\"pending\"}]}")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(written.statusCode()).isEqualTo(200);
		assertThat(this.threadStore.load(session).get("todos")).asList().hasSize(1);

		JsonNode reply = chat(session, "Plan my trip to Lisbon");
		assertThat(reply.get("conversationId").asString()).isEqualTo(session);
		assertThat(reply.get("todos").valueStream().toList()).hasSize(3);
		assertThat(this.threadStore.load(session).get("todos")).asList()
			.singleElement()
			.asString()
			.contains("The MCP client's own item");
		HttpResponse<String> read = http.send(RawMcp.post(this.port, session, RawMcp.toolsCall(3, "read_todos", "{}")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(read.body()).contains("The MCP client's own item").doesNotContain("Check the weather in Lisbon");
	}

	private Path workspaceFile(String name) {
		return workspace.resolve(name);
	}

	private JsonNode chat(String conversationId, String message) throws Exception {
		String body = JsonMapper.shared()
			.writeValueAsString(Map.of("conversationId", conversationId, "message", message));
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/chat"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonMapper.shared().readTree(response.body());
	}

}
