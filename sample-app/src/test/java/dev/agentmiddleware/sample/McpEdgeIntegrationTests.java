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
import dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's MCP edge as an operator sees it: tools annotated for clients, only the
 * capabilities it serves advertised, a call refused for its arguments counted with its
 * own outcome, requests for unknown methods that leave no request open, and a client's
 * own texts in {@code initialize} limited and kept out of the log.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class McpEdgeIntegrationTests {

	private static final String ACTIVE_REQUESTS = "http.server.requests.active";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	HardenedStreamableHttpTransport transport;

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
		HttpResponse<String> initialized = http
			.send(post(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
					+ "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"),
					HttpResponse.BodyHandlers.ofString());
		session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(this.meterRegistry.find(ACTIVE_REQUESTS).longTaskTimers()).as("the active-requests meter")
			.isNotEmpty();
		long baseline = activeRequests();
		for (int i = 0; i < 200; i++) {
			HttpResponse<String> response = http.send(
					post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"unknown/method\"}"),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).contains("-32601");
		}
		// An event stream another test's client left may close meanwhile, never one of
		// these 200 stay open. The
		// server ends a request's observation just after the client has the response, so
		// the last one may still
		// count for a moment: wait for it (one left open would count for ever)
		Awaitility.await("none of the 200 requests stays active")
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> activeRequests() <= baseline);
	}

	@Test
	void initializeAdvertisesOnlyTheToolsTheSampleServes() {
		try (McpSession session = McpSession.open(this.port)) {
			McpSchema.ServerCapabilities capabilities = session.initialized().capabilities();
			assertThat(capabilities.tools()).isNotNull();
			assertThat(capabilities.resources()).as("resources").isNull();
			assertThat(capabilities.prompts()).as("prompts").isNull();
			assertThat(capabilities.completions()).as("completions").isNull();
		}
	}

	@Test
	void initializeRefusesClientTextsOverTheirLimitsNamingTheFieldAndTheLimit() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		int sessions = this.transport.sessionCount();
		assertThat(refusalOfInitialize(http, "2025-06-18", "a".repeat(786_000), "1")).contains("-32602",
				"clientInfo.name may have at most 256 characters");
		assertThat(refusalOfInitialize(http, "2025-06-18", "client", "1".repeat(65))).contains("-32602",
				"clientInfo.version may have at most 64 characters");
		assertThat(refusalOfInitialize(http, "2025-06-18-" + "9".repeat(22), "client", "1")).contains("-32602",
				"protocolVersion must be 1 to 32 letters, digits");
		assertThat(refusalOfInitialize(http, "2025-06-18\\nINFO forged", "client", "1")).contains("-32602",
				"protocolVersion must be 1 to 32 letters, digits");
		assertThat(this.transport.sessionCount()).as("no session keeps what was refused").isEqualTo(sessions);
		// At the limits a session starts
		HttpResponse<String> atLimits = http.send(post(null, initialize("2025-06-18", "a".repeat(256), "1".repeat(64))),
				HttpResponse.BodyHandlers.ofString());
		assertThat(atLimits.headers().firstValue("Mcp-Session-Id")).as(atLimits.body()).isPresent();
	}

	@Test
	void aClientsTextsNeitherForgeNorFloodTheLog(CapturedOutput output) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String forged = "evil\\n2026-01-01T00:00:00.000Z  INFO 1 --- [main] d.a.approval : call approved by admin"
				+ "\\u001b[2K\\u001b[1A\\u009b31m";
		HttpResponse<String> initialized = http.send(post(null, initialize("2025-06-18", forged, "1")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(initialized.headers().firstValue("Mcp-Session-Id")).as(initialized.body()).isPresent();
		assertThat(output).doesNotContain("approved by admin")
			.doesNotContain("\u001b[")
			.doesNotContain("\u009b")
			.doesNotContain("Client initialize request");
	}

	private String refusalOfInitialize(HttpClient http, String protocolVersion, String name, String version)
			throws Exception {
		HttpResponse<String> response = http.send(post(null, initialize(protocolVersion, name, version)),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
		assertThat(response.body().length()).as("the refusal does not echo the text").isLessThan(300);
		return response.body();
	}

	private static String initialize(String protocolVersion, String name, String version) {
		return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
				+ protocolVersion + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"" + name + "\",\"version\":\""
				+ version + "\"}}}";
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
