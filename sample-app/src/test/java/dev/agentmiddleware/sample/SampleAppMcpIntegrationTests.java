package dev.agentmiddleware.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.agentmiddleware.sample.counting.CallCountingMiddleware;
import dev.agentmiddleware.sample.weather.Weather;
import dev.agentmiddleware.sample.weather.WeatherTools;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the sample app on a random port and calls its tools with the MCP Java SDK's
 * client over Streamable HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class SampleAppMcpIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	CallCountingMiddleware callCounting;

	private McpSession session;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@BeforeEach
	void connect() {
		// A new MCP session per test: each gets its own get_weather rate-limit budget (5
		// per minute per session).
		this.session = McpSession.open(this.port);
	}

	@AfterEach
	void disconnect() {
		this.session.close();
	}

	@Test
	void initializesAsToolServer() {
		assertThat(this.session.initialized().serverInfo().name()).isEqualTo("agent-middleware-sample");
		assertThat(this.session.initialized().capabilities().tools()).isNotNull();
	}

	@Test
	void listsEveryToolWithItsParameters() {
		Map<String, Tool> tools = this.session.tools()
			.stream()
			.collect(Collectors.toMap(Tool::name, Function.identity()));
		assertThat(tools).containsKeys("list_files", "read_file", "write_file", "delete_file", "get_weather");
		assertThat(properties(tools.get("list_files"))).containsOnlyKeys("directory");
		assertThat(required(tools.get("list_files"))).doesNotContain("directory");
		assertThat(properties(tools.get("read_file"))).containsOnlyKeys("path");
		assertThat(required(tools.get("read_file"))).containsExactly("path");
		assertThat(properties(tools.get("write_file"))).containsOnlyKeys("path", "content");
		assertThat(required(tools.get("write_file"))).containsExactlyInAnyOrder("path", "content");
		assertThat(properties(tools.get("delete_file"))).containsOnlyKeys("path");
		assertThat(properties(tools.get("get_weather"))).containsOnlyKeys("city");
		assertThat(required(tools.get("get_weather"))).containsExactly("city");
		assertThat(tools.get("get_weather").description()).isNotBlank();
	}

	@Test
	void writtenFileReadsBack() throws IOException {
		CallToolResult written = call("write_file", Map.of("path", "notes/hello.txt", "content", "Hello over MCP"));
		assertThat(written.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(written)).contains("notes/hello.txt");
		assertThat(workspace.resolve("notes/hello.txt")).hasContent("Hello over MCP");
		CallToolResult read = call("read_file", Map.of("path", "notes/hello.txt"));
		assertThat(read.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(read)).isEqualTo("Hello over MCP");
	}

	@Test
	void listsFilesOfTheWorkspace() throws IOException {
		Files.createDirectories(workspace.resolve("listing"));
		Files.writeString(workspace.resolve("listing/a.txt"), "a");
		CallToolResult listed = call("list_files", Map.of("directory", "listing"));
		assertThat(listed.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(listed)).isEqualTo("[\"listing/a.txt\"]");
	}

	@Test
	void weatherIsTheSimulatedServicesAnswer() {
		CallToolResult result = call("get_weather", Map.of("city", "Lisbon"));
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		Weather weather = JsonMapper.builder().build().readValue(text(result), Weather.class);
		assertThat(weather).isEqualTo(new WeatherTools((duration) -> {
		}).getWeather("Lisbon"));
	}

	@Test
	void pathOutsideTheWorkspaceIsAShortError() {
		CallToolResult result = call("read_file", Map.of("path", "../secret.txt"));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("../secret.txt").contains("outside the workspace");
		assertShortAndClean(text(result));
	}

	@Test
	void missingFileIsAShortError() {
		CallToolResult result = call("read_file", Map.of("path", "missing.txt"));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("missing.txt").contains("no such file");
		assertShortAndClean(text(result));
	}

	@Test
	void chainRunsExactlyOncePerCall() {
		// A new city each time: a cached answer would not reach the counting middleware.
		long before = this.callCounting.count("get_weather");
		for (int call = 1; call <= 3; call++) {
			CallToolResult result = call("get_weather", Map.of("city", "Chain Town " + call));
			assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
			assertThat(this.callCounting.count("get_weather")).isEqualTo(before + call);
		}
	}

	@Test
	void mcpSessionIsTheCallsSession(CapturedOutput output) {
		call("get_weather", Map.of("city", "Session Town"));
		assertThat(output).contains("Tool get_weather called in session ")
			.doesNotContain("Tool get_weather called in session none");
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.session.call(tool, arguments);
	}

	@Test
	void anIntegerTooLargeForItsParameterNamesTheParameterAndTheRange() {
		assertThat(this.session.fail("generate_report", Map.of("topic", "sales", "seconds", 2147483648L)))
			.isEqualTo("Invalid arguments for tool 'generate_report', parameter 'seconds': is out of range: expected "
					+ "an integer from -2147483648 to 2147483647");
	}

	private static String text(CallToolResult result) {
		return McpSession.text(result);
	}

	// One short line: no stack trace, no qualified class names, not the workspace's
	// location.
	private static void assertShortAndClean(String text) {
		assertThat(text).hasSizeLessThan(300)
			.doesNotContain("\n")
			.doesNotContain("\tat ")
			.doesNotContain("java.")
			.doesNotContain("dev.agentmiddleware.")
			.doesNotContain(workspace.toString());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> properties(Tool tool) {
		return (Map<String, Object>) tool.inputSchema().get("properties");
	}

	@SuppressWarnings("unchecked")
	private static List<String> required(Tool tool) {
		return (List<String>) tool.inputSchema().getOrDefault("required", List.of());
	}

}
