package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official TypeScript MCP client
 * ({@code src/test/node/mcp-client/results-client.mjs}) reads a file longer than the
 * result limit and gets it cut with the marker, and a configuration file with its
 * password redacted.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class TypeScriptClientResultGuardsIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void typeScriptSdkClientGetsACutResultAndARedactedPassword() throws Exception {
		Files.writeString(workspace.resolve("huge.txt"), "0123456789".repeat(25_000));
		Files.writeString(workspace.resolve("db.env"), "DB_HOST=db.internal\nDB_PASSWORD=Ts-S3cret-77\n");
		TypeScriptClientIntegrationTests.installClient();
		String output = TypeScriptClientIntegrationTests.run(
				List.of("node", "results-client.mjs", "http://localhost:" + this.port + "/mcp", "huge.txt", "db.env"),
				120);
		JsonNode seen = JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());

		JsonNode cut = seen.get("long");
		assertThat(cut.get("isError").asBoolean()).isFalse();
		assertThat(cut.get("length").asInt()).isBetween(99_000, 100_000);
		assertThat(cut.get("end").asString())
			.endsWith("more characters; the tool's result is longer than its limit of 100,000 characters]")
			.contains("… [cut: 15");

		JsonNode config = seen.get("config");
		assertThat(config.get("isError").asBoolean()).isFalse();
		assertThat(config.get("text").asString()).isEqualTo("DB_HOST=db.internal\nDB_PASSWORD=[REDACTED]\n");
	}

}
