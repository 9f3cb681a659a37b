package dev.agentmiddleware.it;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;
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
 * MCP revision {@code 2026-07-28} on the endpoint of the 2025-11-25 sessions, over real
 * HTTP: each wire rule of the revision the transport serves statelessly, and a
 * {@code 2025-11-25} session beside it, unchanged.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, StatelessMcpIntegrationTests.Tools.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.ai.mcp.server.streamable-http.keep-alive-interval=100ms",
				"agent.middleware.mcp.progress-interval=10ms" })
class StatelessMcpIntegrationTests {

	private static final String VERSION = "2026-07-28";

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientCapabilities\":{},"
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}";

	@LocalServerPort
	int port;

	@Autowired
	HoldTools hold;

	@Test
	void discoverAnswersVersionsCapabilitiesAndServerInfoWithoutASession() throws Exception {
		HttpResponse<String> response = post("server/discover", null, "{" + META + "}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
		JsonNode result = json(response.body()).get("result");
		assertThat(result.get("supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
		assertThat(result.get("capabilities").has("tools")).isTrue();
		assertThat(result.get("_meta").get("io.modelcontextprotocol/serverInfo").has("name")).isTrue();
		assertThat(result.get("resultType").asString()).isEqualTo("complete");
	}

	@Test
	void mcpMethodHeaderThatDiffersFromTheBodyIsAHeaderMismatch() throws Exception {
		HttpResponse<String> response = post(headers("prompts/list", null), body("tools/list", "{" + META + "}"));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32020);
		HttpResponse<String> missing = post(headers(null, null), body("tools/list", "{" + META + "}"));
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(missing).get("code").asInt()).isEqualTo(-32020);
	}

	@Test
	void mcpNameHeaderThatDiffersFromTheToolNameIsAHeaderMismatch() throws Exception {
		String params = "{\"name\":\"count_steps\",\"arguments\":{}," + META + "}";
		HttpResponse<String> wrong = post(headers("tools/call", "forecast"), body("tools/call", params));
		assertThat(wrong.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(wrong).get("code").asInt()).isEqualTo(-32020);
		HttpResponse<String> missing = post(headers("tools/call", null), body("tools/call", params));
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(missing).get("code").asInt()).isEqualTo(-32020);
		HttpResponse<String> padded = post(headers("tools/call", "  count_steps "), body("tools/call", params));
		assertThat(padded.statusCode()).isEqualTo(200);
	}

	@Test
	void protocolVersionHeaderThatDiffersFromMetaIsAHeaderMismatch() throws Exception {
		String params = "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
		HttpResponse<String> response = post(headers("tools/list", null), body("tools/list", params));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32020);
	}

	@Test
	void unsupportedVersionIsRefusedWithTheSupportedOnes() throws Exception {
		Map<String, String> headers = headers("server/discover", null);
		headers.put("MCP-Protocol-Version", "2099-01-01");
		String params = "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
		HttpResponse<String> response = post(headers, body("server/discover", params));
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = RawMcpHttp.error(response);
		assertThat(error.get("code").asInt()).isEqualTo(-32022);
		assertThat(error.get("data").get("supported").toString()).isEqualTo("[\"2026-07-28\"]");
		assertThat(error.get("data").get("requested").asString()).isEqualTo("2099-01-01");
	}

	@Test
	void metaWithoutClientCapabilitiesIsInvalidParams() throws Exception {
		String params = "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}";
		HttpResponse<String> response = post(headers("tools/list", null), body("tools/list", params));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32602);
	}

	@Test
	void listResultsCarryResultTypeAndCachingHintsInADeterministicOrder() throws Exception {
		JsonNode result = json(post("tools/list", null, "{" + META + "}").body()).get("result");
		assertThat(result.get("resultType").asString()).isEqualTo("complete");
		assertThat(result.get("ttlMs").asInt()).isZero();
		assertThat(result.get("cacheScope").asString()).isEqualTo("private");
		List<String> names = new ArrayList<>();
		result.get("tools").forEach((tool) -> names.add(tool.get("name").asString()));
		assertThat(names).contains("count_steps", "hold", "forecast").isSorted();
	}

	@Test
	void methodsTheRevisionRemovedAreNotFound() throws Exception {
		for (String method : new String[] { "initialize", "ping", "logging/setLevel", "resources/subscribe" }) {
			HttpResponse<String> response = post(method, null, "{" + META + "}");
			assertThat(response.statusCode()).as(method).isEqualTo(404);
			assertThat(RawMcpHttp.error(response).get("code").asInt()).as(method).isEqualTo(-32601);
		}
	}

	@Test
	void toolCallRunsThroughTheChainWithItsProgressOnAStream() throws Exception {
		String params = "{\"name\":\"count_steps\",\"arguments\":{\"steps\":2},\"_meta\":{\"progressToken\":7,"
				+ "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
				+ "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
		HttpResponse<String> response = post("tools/call", "count_steps", params);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		List<JsonNode> events = events(response.body());
		assertThat(events.get(0).get("method").asString()).isEqualTo("notifications/progress");
		assertThat(events.get(0).get("params").get("progressToken").asInt()).isEqualTo(7);
		JsonNode result = events.get(events.size() - 1).get("result");
		assertThat(result.get("resultType").asString()).isEqualTo("complete");
		assertThat(result.get("content").get(0).get("text").asString()).isEqualTo("counted 2 steps");
		// The chain's argument binding refuses what the schema does not allow
		String bad = "{\"name\":\"count_steps\",\"arguments\":{\"steps\":\"many\"}," + META + "}";
		JsonNode refused = events(post("tools/call", "count_steps", bad).body()).get(0).get("result");
		assertThat(refused.get("isError").asBoolean()).isTrue();
	}

	@Test
	void closingTheResponseStreamCancelsTheCall() throws Exception {
		String body = body("tools/call", "{\"name\":\"hold\",\"arguments\":{}," + META + "}");
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream output = socket.getOutputStream();
			output.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port
					+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
					+ "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: hold\r\n"
					+ "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
				.getBytes(StandardCharsets.UTF_8));
			output.flush();
			InputStream input = socket.getInputStream();
			byte[] head = new byte[12];
			assertThat(input.readNBytes(head, 0, head.length)).isEqualTo(12);
			assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
			assertThat(this.hold.awaitStarted()).isTrue();
		}
		await().atMost(Duration.ofSeconds(10)).until(this.hold::wasInterrupted);
	}

	@Test
	void aSessionOf20251125IsServedBesideUnchanged() throws Exception {
		RawMcpHttp mcp = new RawMcpHttp(this.port);
		String session = mcp.initialize();
		HttpResponse<String> response = mcp.post(mcp.sessionHeaders(session),
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("count_steps").doesNotContain("resultType");
	}

	private HttpResponse<String> post(String method, String name, String params) throws Exception {
		return post(headers(method, name), body(method, params));
	}

	private HttpResponse<String> post(Map<String, String> headers, String body) throws Exception {
		return new RawMcpHttp(this.port).post(headers, body);
	}

	private static Map<String, String> headers(String method, String name) {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", VERSION);
		if (method != null) {
			headers.put("Mcp-Method", method);
		}
		if (name != null) {
			headers.put("Mcp-Name", name);
		}
		return headers;
	}

	private static String body(String method, String params) {
		return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
	}

	private static JsonNode json(String body) {
		return JsonMapper.shared().readTree(body);
	}

	private static List<JsonNode> events(String body) {
		List<JsonNode> events = new ArrayList<>();
		body.lines()
			.filter((line) -> line.startsWith("data:"))
			.forEach((line) -> events.add(json(line.substring("data:".length()))));
		return events;
	}

	// A class-based proxy wraps the tool bean: the test talks to it through methods
	public static class HoldTools {

		private final CountDownLatch started = new CountDownLatch(1);

		private final CountDownLatch interrupted = new CountDownLatch(1);

		public boolean awaitStarted() throws InterruptedException {
			return this.started.await(10, TimeUnit.SECONDS);
		}

		public boolean wasInterrupted() {
			return this.interrupted.getCount() == 0;
		}

		@AgentTool(description = "Holds until cancelled", safety = SafetyLevel.SAFE, openWorld = false,
				tags = "interruptible")
		public String hold() {
			this.started.countDown();
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

		@AgentTool(description = "Counts steps, reporting each", safety = SafetyLevel.SAFE, openWorld = false)
		public String countSteps(@AgentToolParam(description = "How many steps") int steps, ToolProgress progress) {
			for (int i = 1; i <= steps; i++) {
				progress.report(i, steps, "step " + i);
			}
			return "counted " + steps + " steps";
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		HoldTools holdTools() {
			return new HoldTools();
		}

	}

}
