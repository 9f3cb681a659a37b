package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's MCP edge as an operator sees it: tools annotated for clients, a call refused for its arguments
 * counted with its own outcome, and requests for unknown methods that leave no request open.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class McpEdgeIntegrationTests {

	private static final String ACTIVE_REQUESTS = "http.server.requests.active";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void toolsCarryAnnotationsAndStructuredResults() {
		try (McpSession session = McpSession.open(this.port)) {
			Map<String, Tool> tools = session.tools()
				.stream()
				.collect(java.util.stream.Collectors.toMap(Tool::name, (tool) -> tool));
			assertThat(tools.get("get_weather").annotations().readOnlyHint()).isTrue();
			assertThat(tools.get("get_weather").outputSchema()).containsEntry("type", "object");
			assertThat(tools.get("delete_file").annotations().destructiveHint()).isTrue();
			assertThat(tools.get("read_file").annotations().destructiveHint()).isFalse();
			assertThat(session.call("get_weather", Map.of("city", "Structured Town")).structuredContent())
				.isInstanceOf(Map.class);
		}
	}

	@Test
	void callRefusedForItsArgumentsIsCountedWithItsOwnOutcome() {
		long before = callCount("get_weather", "invalid_arguments");
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.fail("get_weather", Map.of("city", "Lisbon", "country", "PT"))).contains("'country'");
		}
		assertThat(callCount("get_weather", "invalid_arguments")).isEqualTo(before + 1);
	}

	@Test
	void requestsForUnknownMethodsLeaveNoRequestActive() throws Exception {
		String session;
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> initialized = http.send(post(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
				+ "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"),
				HttpResponse.BodyHandlers.ofString());
		session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(this.meterRegistry.find(ACTIVE_REQUESTS).longTaskTimers()).as("the active-requests meter").isNotEmpty();
		long baseline = activeRequests();
		for (int i = 0; i < 200; i++) {
			HttpResponse<String> response = http.send(
					post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"unknown/method\"}"),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).contains("-32601");
		}
		// An event stream another test's client left may close meanwhile, never one of these 200 stay open. The
		// server ends a request's observation just after the client has the response, so the last one may still
		// count for a moment: wait for it (one left open would count for ever)
		Awaitility.await("none of the 200 requests stays active")
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> activeRequests() <= baseline);
	}

	private HttpRequest post(String session, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return request.build();
	}

	private long activeRequests() {
		return this.meterRegistry.find(ACTIVE_REQUESTS)
			.longTaskTimers()
			.stream()
			.mapToLong(LongTaskTimer::activeTasks)
			.sum();
	}

	private long callCount(String tool, String outcome) {
		return this.meterRegistry.find("agent.tool.call")
			.tag("agent.tool.name", tool)
			.tag("agent.tool.outcome", outcome)
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

}
