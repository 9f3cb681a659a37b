package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The executable jar as the README starts it ({@code java -jar}, embedded defaults, no
 * option but a port and a workspace): what the build ships, not the test class path. Its
 * stores live in its H2 file database, as the README says, the startup lines name each of
 * them, its MCP endpoint serves governed tools to the MCP Java SDK's client, and a
 * conversation's todo list survives a restart.
 */
class SampleJarIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path directory;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void theJarKeepsItsStoresInItsH2DatabaseAndSaysSo() throws Exception {
		Path workspace = Files.createDirectories(this.directory.resolve("workspace-root"));
		Files.writeString(workspace.resolve("notes.txt"), "from the jar");
		try (SampleJar app = SampleJar.start(this.directory.resolve("run"), "--sample.workspace.root=" + workspace)) {
			assertThat(app.log())
				.contains("; approval store: jdbc (H2, HikariDataSource); thread store: jdbc (H2, HikariDataSource); "
						+ "audit store: jdbc (H2, HikariDataSource)")
				.contains("Rate limits are counted in memory, per instance")
				.contains("Cache invalidations travel to every instance through")
				.contains("MCP sessions are kept in memory");
			assertThat(app.log().lines()).filteredOn((line) -> line.contains(" WARN ") || line.contains(" ERROR "))
				.isEmpty();
			// A real MCP client: the MCP Java SDK's, over Streamable HTTP
			try (McpSession client = McpSession.open(app.port())) {
				assertThat(client.toolNames()).contains("read_file", "write_todos", "delete_file", "get_weather");
				assertThat(client.succeed("read_file", Map.of("path", "notes.txt"))).isEqualTo("from the jar");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(app.log()).as("the call's log line")
					.containsPattern("tool=read_file session=sid-\\S+ source=mcp outcome=succeeded"));
		}
	}

	@Test
	void aConversationsTodoListSurvivesARestartOfTheJar() throws Exception {
		Path workspace = Files.createDirectories(this.directory.resolve("workspace-root"));
		Files.writeString(workspace.resolve("notes.txt"), "Buy milk");
		Path run = this.directory.resolve("run");
		List<Map<String, Object>> written;
		try (SampleJar app = SampleJar.start(run, "--sample.workspace.root=" + workspace)) {
			JsonNode reply = chat(app.port(), "restart-1");
			written = todos(reply.get("todos"));
			assertThat(written).isNotEmpty();
			assertThat(app.stop()).as("exit code after SIGTERM: a stop asked for is a normal end").isZero();
		}
		assertThat(run.resolve("workspace/data")).as("the H2 file database in the working directory").isDirectory();
		try (SampleJar restarted = SampleJar.start(run, "--sample.workspace.root=" + workspace)) {
			HttpResponse<String> todos = this.http.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + restarted.port() + "/chat/restart-1/todos"))
						.build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(todos.statusCode()).as(todos.body()).isEqualTo(200);
			assertThat(todos(JSON.readTree(todos.body()))).isEqualTo(written);
		}
	}

	private JsonNode chat(int port, String conversationId) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest
			.newBuilder(URI.create("http://localhost:" + port + "/chat"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(
					JSON.writeValueAsString(Map.of("conversationId", conversationId, "message", "Tidy up my notes"))))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JSON.readTree(response.body());
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> todos(JsonNode todos) {
		return JSON.convertValue(todos, List.class);
	}

}
