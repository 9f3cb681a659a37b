package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replays sample-app/README.md from the top, in order, on a freshly started app: "Talk to
 * it", then each built-in over MCP, then the actuator and Prometheus output, and checks
 * every documented outcome. A change that makes the README wrong fails here.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class ReadmeWalkthroughMcpIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void everyDocumentedOutputIsTrueWhenTheReadmeIsFollowedInOrder(CapturedOutput output) throws Exception {
		SoftAssertions softly = new SoftAssertions();
		// Talk to it
		try (McpSession talk = McpSession.open(this.port)) {
			talk.succeed("get_weather", Map.of("city", "Lisbon"));
			softly.assertThat(talk.fail("read_file", Map.of("path", "../../etc/passwd")))
				.isEqualTo("Tool 'read_file' failed: IllegalArgumentException: Path '../../etc/passwd' is outside "
						+ "the workspace");
		}
		McpSession walk = McpSession.open(this.port);
		long walkStarted = System.nanoTime();
		try {
			// Cache hit: the first call runs the tool, the second is answered by the
			// cache
			String first = walk.succeed("get_weather", Map.of("city", "Sintra"));
			String second = walk.succeed("get_weather", Map.of("city", "Sintra"));
			softly.assertThat(first)
				.isEqualTo(second)
				.isEqualTo(
						"{\"city\":\"Sintra\",\"temperatureCelsius\":15,\"condition\":\"sunny\",\"humidityPercent\":33}");
			softly.assertThat(output.getOut())
				.containsPattern(
						"tool=get_weather session=\\S+ source=mcp outcome=succeeded duration_ms=\\S+ call=\\S+ args=\\{city=\"Sintra\"}")
				.containsPattern(
						"tool=get_weather session=\\S+ source=mcp outcome=cached decided_by=cache duration_ms=\\S+ call=\\S+ args=\\{city=\"Sintra\"}");
			// Rate limit: Sintra used the first permit, four more cities the rest, the
			// sixth call is refused
			for (String city : List.of("Porto", "Faro", "Braga", "Evora")) {
				softly.assertThat(walk.succeed("get_weather", Map.of("city", city)))
					.startsWith("{\"city\":\"" + city + "\",");
			}
			String refused = walk.fail("get_weather", Map.of("city", "Coimbra"));
			long walkMillis = (System.nanoTime() - walkStarted + 999_999) / 1_000_000;
			// The README shows "retry in about 1m": the session's five permits come back
			// a minute after the first was
			// taken, so the hint is that minute less what the walk took since (on a
			// loaded machine, a second or more)
			Matcher hint = Pattern.compile(
					"Tool 'get_weather' is rate limited \\(5 calls per 1m per session\\); retry in about (1m|\\d+s)")
				.matcher(refused);
			softly.assertThat(hint.matches()).as(refused).isTrue();
			if (hint.matches()) {
				long hintSeconds = hint.group(1).equals("1m") ? 60 : Long.parseLong(hint.group(1).replace("s", ""));
				softly.assertThat(hintSeconds * 1000).as(refused).isBetween(60_000 - walkMillis, 60_000L);
			}
		}
		finally {
			walk.close();
		}
		try (McpSession session = McpSession.open(this.port)) {
			softly.assertThat(session.succeed("get_weather", Map.of("city", "Porto")))
				.startsWith("{\"city\":\"Porto\",");
			softly.assertThat(session.succeed("get_weather", Map.of("city", "Aveiro")))
				.isEqualTo(
						"{\"city\":\"Aveiro\",\"temperatureCelsius\":3,\"condition\":\"sunny\",\"humidityPercent\":85}");
			// Retry
			softly.assertThat(session.succeed("get_exchange_rate", Map.of("from", "eur", "to", "usd")))
				.isEqualTo("EUR/USD 0.59");
			// Timeout: the outcome, not the wall-clock time
			softly.assertThat(session.fail("generate_report", Map.of("topic", "sales", "seconds", 5)))
				.isEqualTo("Tool 'generate_report' timed out after 2s; try again later or with a smaller request");
			softly.assertThat(session.succeed("generate_report", Map.of("topic", "sales", "seconds", 0)))
				.isEqualTo("Report on sales: all figures nominal");
			// Crash recovery
			softly.assertThat(session.succeed("browse", Map.of("url", "https://example.org")))
				.isEqualTo("Title of https://example.org (browser #1)");
			softly.assertThat(session.succeed("crash_browser", Map.of()))
				.isEqualTo("The browser process crashed; the next browse call recovers it");
			softly.assertThat(session.succeed("browse", Map.of("url", "https://example.org")))
				.isEqualTo("Title of https://example.org (browser #2)");
			softly.assertThat(output.getOut()).contains("Restarting the browser after a crash in tool browse");
			// Cache invalidation
			session.succeed("write_file", Map.of("path", "notes.txt", "content", "first"));
			softly.assertThat(session.succeed("read_file", Map.of("path", "notes.txt"))).isEqualTo("first");
			session.succeed("write_file", Map.of("path", "notes.txt", "content", "second"));
			softly.assertThat(session.succeed("read_file", Map.of("path", "notes.txt"))).isEqualTo("second");
			// "and one read_file of a missing file"
			session.fail("read_file", Map.of("path", "missing.txt"));
		}
		// Watch it: Actuator and Prometheus. Learning is fed on the observer tier's
		// thread, after each call has
		// returned, one record after the other: wait until the walk's last call (the
		// read_file of a missing file,
		// read_file's second failure) has reached it, and so every earlier one
		await("the walk's last call reaches learning").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(failingTool(
					JsonMapper.shared().readTree(get("/actuator/agentmiddleware")).get("sections").get("learning"),
					"read_file")
				.get("failures")
				.asInt()).isGreaterThanOrEqualTo(2));
		JsonNode overview = JsonMapper.shared().readTree(get("/actuator/agentmiddleware"));
		Map<String, String> pipelines = Map.of("archive_directory",
				"[observation, logging, results, approval, call-counting, archive_directory]", "browse",
				"[observation, logging, results, crash-recovery, call-counting, browse]", "crash_browser",
				"[observation, logging, results, call-counting, crash_browser]", "delete_file",
				"[observation, logging, results, approval, call-counting, delete_file]", "generate_report",
				"[observation, logging, results, timeout, call-counting, generate_report]", "get_exchange_rate",
				"[observation, logging, results, retry, call-counting, get_exchange_rate]", "get_weather",
				"[observation, logging, results, cache, retry, rate-limit, call-counting, get_weather]", "list_files",
				"[observation, logging, results, cache, retry, call-counting, list_files]", "read_file",
				"[observation, logging, results, cache, retry, call-counting, read_file]", "write_file",
				"[observation, logging, results, call-counting, write_file]");
		pipelines.forEach((tool, chain) -> softly.assertThat(overview.get("tools").get(tool).get("pipeline").asString())
			.isEqualTo(tool + " → " + chain));
		softly.assertThat(overview.get("observers").get("droppedRecords").asLong()).isZero();
		JsonNode learning = overview.get("sections").get("learning");
		JsonNode report = failingTool(learning, "generate_report");
		softly.assertThat(report.get("failures").asInt()).isEqualTo(1);
		softly.assertThat(report.get("successes").asInt()).isEqualTo(1);
		softly.assertThat(report.get("recoveries").asInt()).isEqualTo(1);
		softly.assertThat(report.get("lastErrorPattern").asString())
			.isEqualTo("Tool '<value>' timed out after <n>s; try again later or with a smaller request");
		softly.assertThat(report.get("lastErrorCategory").asString()).isEqualTo("TIMEOUT");
		softly.assertThat(report.get("failing").asBoolean()).isFalse();
		JsonNode readFile = failingTool(learning, "read_file");
		softly.assertThat(readFile.get("failures").asInt()).isEqualTo(2);
		softly.assertThat(readFile.get("successes").asInt()).isEqualTo(2);
		softly.assertThat(readFile.get("lastErrorPattern").asString())
			.isEqualTo("<arg>: no such file in the workspace");
		softly.assertThat(readFile.get("failing").asBoolean()).isTrue();
		JsonNode weather = JsonMapper.shared().readTree(get("/actuator/agentmiddleware/get_weather"));
		JsonNode statistics = weather.get("settings").get("learning").get("statistics");
		softly.assertThat(statistics.get("failures").asInt()).isEqualTo(1);
		softly.assertThat(statistics.get("successes").asInt()).isEqualTo(9);
		softly.assertThat(statistics.get("recoveries").asInt()).isEqualTo(1);
		softly.assertThat(learning.get("patterns").asInt()).isEqualTo(4);
		softly.assertThat(learning.get("evictedPatterns").asInt()).isZero();
		String scrape = get("/actuator/prometheus");
		softly.assertThat(scrape)
			.contains("agent_tool_cache_hits_total{agent_tool_name=\"get_weather\"} 2.0",
					"agent_tool_cache_misses_total{agent_tool_name=\"get_weather\"} 8.0",
					"agent_tool_cache_misses_total{agent_tool_name=\"read_file\"} 4.0",
					"agent_tool_call_seconds_count{agent_tool_name=\"get_weather\",agent_tool_outcome=\"cached\","
							+ "agent_tool_source=\"mcp\",error=\"none\"} 2",
					"agent_tool_call_seconds_count{agent_tool_name=\"get_weather\",agent_tool_outcome=\"rate_limited\","
							+ "agent_tool_source=\"mcp\",error=\"ToolRateLimitedException\"} 1",
					"agent_tool_call_seconds_count{agent_tool_name=\"get_weather\",agent_tool_outcome=\"succeeded\","
							+ "agent_tool_source=\"mcp\",error=\"none\"} 7",
					"agent_tool_call_seconds_count{agent_tool_name=\"generate_report\",agent_tool_outcome=\"timed_out\","
							+ "agent_tool_source=\"mcp\",error=\"ToolTimeoutException\"} 1",
					"agent_tool_call_seconds_count{agent_tool_name=\"read_file\",agent_tool_outcome=\"failed\","
							+ "agent_tool_source=\"mcp\",error=\"NoSuchFileException\"} 1",
					"agent_tool_crash_recoveries_total{agent_tool_name=\"browse\"} 1.0",
					"agent_tool_observer_drops_total 0.0",
					"agent_tool_ratelimit_rejections_total{agent_tool_name=\"get_weather\"} 1.0",
					"agent_tool_retries_total{agent_tool_name=\"get_exchange_rate\"} 1.0");
		softly.assertAll();
	}

	private static JsonNode failingTool(JsonNode learning, String tool) {
		for (JsonNode each : learning.get("topFailingTools")) {
			if (each.get("tool").asString().equals(tool)) {
				return each;
			}
		}
		throw new AssertionError(tool + " is not among the failing tools: " + learning.get("topFailingTools"));
	}

	private String get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		return response.body();
	}

}
