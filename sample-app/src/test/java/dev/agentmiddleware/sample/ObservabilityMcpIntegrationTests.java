package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
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
 * Drives the sample app over MCP, then reads what an operator sees: the
 * {@code agent.tool.call} timer per tool and outcome in the {@link MeterRegistry} and in
 * the Prometheus scrape, and the {@code agentmiddleware} actuator endpoint's chain of
 * each tool.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ObservabilityMcpIntegrationTests {

	// The todo tools are contributed by the todo agent middleware: in the endpoint and
	// the MCP list like the others.
	private static final List<String> TOOLS = List.of("archive_directory", "browse", "crash_browser", "delete_file",
			"generate_report", "get_exchange_rate", "get_weather", "list_files", "plan_trip", "read_file", "read_todos",
			"update_todo", "weather_chart", "write_file", "write_todos");

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void callTimerCountsEachToolAndOutcome() throws Exception {
		long weatherSucceeded = timerCount("get_weather", "succeeded");
		long weatherCached = timerCount("get_weather", "cached");
		long readFailed = timerCount("read_file", "failed");
		String scrape = scrape();
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("get_weather", Map.of("city", "Metric Town"));
			session.succeed("get_weather", Map.of("city", "Metric Town"));
			session.succeed("get_weather", Map.of("city", "Metric City"));
			session.fail("read_file", Map.of("path", "metrics/missing.txt"));
		}
		assertThat(timerCount("get_weather", "succeeded")).isEqualTo(weatherSucceeded + 2);
		assertThat(timerCount("get_weather", "cached")).isEqualTo(weatherCached + 1);
		assertThat(timerCount("read_file", "failed")).isEqualTo(readFailed + 1);
		String scrapeAfter = scrape();
		assertThat(scrapedCount(scrapeAfter, "get_weather", "succeeded"))
			.isEqualTo(scrapedCount(scrape, "get_weather", "succeeded") + 2);
		assertThat(scrapedCount(scrapeAfter, "get_weather", "cached"))
			.isEqualTo(scrapedCount(scrape, "get_weather", "cached") + 1);
		assertThat(scrapedCount(scrapeAfter, "read_file", "failed"))
			.isEqualTo(scrapedCount(scrape, "read_file", "failed") + 1);
		assertThat(scrapeAfter).containsPattern("(?m)^agent_tool_cache_hits_total\\{agent_tool_name=\"get_weather\"} ")
			.containsPattern(
					"(?m)^agent_tool_call_seconds_count\\{[^}]*agent_tool_outcome=\"failed\"[^}]*error=\"NoSuchFileException\"");
	}

	@Test
	void endpointShowsTheChainOfATool() throws Exception {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("get_weather", Map.of("city", "Endpoint Town"));
		}
		JsonNode weather = JsonMapper.shared().readTree(get("/actuator/agentmiddleware/get_weather"));
		assertThat(weather.get("chain").valueStream().map(JsonNode::asString)).containsExactly("observation", "logging",
				"results", "cache", "retry", "rate-limit", "call-counting", "get_weather");
		assertThat(weather.get("pipeline").asString())
			.isEqualTo("get_weather → [observation, logging, results, cache, retry, rate-limit, call-counting, "
					+ "get_weather]");
		assertThat(weather.get("readOnly").asBoolean()).isTrue();
	}

	@Test
	void endpointOverviewListsEveryTool() throws Exception {
		JsonNode overview = JsonMapper.shared().readTree(get("/actuator/agentmiddleware"));
		assertThat(overview.get("tools").propertyNames()).containsExactlyElementsOf(TOOLS);
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.toolNames()).containsExactlyInAnyOrderElementsOf(TOOLS);
		}
		assertThat(overview.get("tools").get("browse").get("chain").valueStream().map(JsonNode::asString))
			.containsExactly("observation", "logging", "results", "crash-recovery", "call-counting", "browse");
		assertThat(overview.get("tools").get("generate_report").get("chain").valueStream().map(JsonNode::asString))
			.containsExactly("observation", "logging", "results", "timeout", "call-counting", "generate_report");
		assertThat(overview.get("observers").get("droppedRecords").asLong()).isZero();
	}

	private long timerCount(String tool, String outcome) {
		return this.meterRegistry.find("agent.tool.call")
			.tag("agent.tool.name", tool)
			.tag("agent.tool.outcome", outcome)
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	private String scrape() throws IOException, InterruptedException {
		return get("/actuator/prometheus");
	}

	// The sum over the timer's series (one per source and error type) of one tool and
	// outcome.
	private static long scrapedCount(String scrape, String tool, String outcome) {
		return scrape.lines()
			.filter((line) -> line.startsWith("agent_tool_call_seconds_count{"))
			.filter((line) -> line.contains("agent_tool_name=\"" + tool + "\""))
			.filter((line) -> line.contains("agent_tool_outcome=\"" + outcome + "\""))
			.mapToLong((line) -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	private String get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		return response.body();
	}

}
