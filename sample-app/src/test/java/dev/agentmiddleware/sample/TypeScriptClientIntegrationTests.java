package dev.agentmiddleware.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
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
 * The sample app driven by the official MCP TypeScript SDK client
 * ({@code @modelcontextprotocol/sdk} from npm):
 * {@code src/test/node/mcp-client/client.mjs}, installed with {@code npm ci} from its
 * committed lock file into {@code target/}, lists the tools and calls two of them.
 */
@RequiresService(TestService.NODE)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class TypeScriptClientIntegrationTests {

	private static final Path CLIENT_SOURCES = Paths.get("src/test/node/mcp-client");

	private static final Path CLIENT_DIRECTORY = Paths.get("target/ts-mcp-client");

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void typeScriptSdkClientSeesAnnotatedToolsAndStructuredResults() throws Exception {
		installClient();
		String output = run(List.of("node", "client.mjs", "http://localhost:" + this.port + "/mcp"), 120);
		JsonNode seen = JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());

		JsonNode weatherTool = seen.get("tools").get("get_weather");
		assertThat(weatherTool.get("annotations").get("readOnlyHint").asBoolean()).isTrue();
		assertThat(weatherTool.get("annotations").get("destructiveHint").asBoolean()).isFalse();
		assertThat(weatherTool.get("hasOutputSchema").asBoolean()).isTrue();
		assertThat(seen.get("tools").get("delete_file").get("annotations").get("destructiveHint").asBoolean()).isTrue();

		JsonNode weather = seen.get("weather");
		assertThat(weather.get("isError").asBoolean()).isFalse();
		assertThat(weather.get("structuredContent").get("city").asString()).isEqualTo("Typescript Town");
		assertThat(weather.get("text").asString()).contains("\"city\":\"Typescript Town\"");

		JsonNode refused = seen.get("refused");
		assertThat(refused.get("isError").asBoolean()).isTrue();
		assertThat(refused.get("text").asString()).contains("get_weather").contains("'country'");
	}

	// Also used by the other TypeScript client tests
	static void installClient() throws IOException, InterruptedException {
		Files.createDirectories(CLIENT_DIRECTORY);
		for (String file : new String[] { "package.json", "package-lock.json", "client.mjs", "bearer-client.mjs",
				"results-client.mjs", "progress-client.mjs", "features-client.mjs" }) {
			Files.copy(CLIENT_SOURCES.resolve(file), CLIENT_DIRECTORY.resolve(file),
					StandardCopyOption.REPLACE_EXISTING);
		}
		if (!Files.isDirectory(CLIENT_DIRECTORY.resolve("node_modules/@modelcontextprotocol/sdk"))) {
			run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
		}
	}

	static String run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
		return run(CLIENT_DIRECTORY, command, timeoutSeconds);
	}

	// Runs a command in a directory, asserting it ends in time and with exit code 0
	static String run(Path directory, List<String> command, long timeoutSeconds)
			throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		process.getOutputStream().close();
		byte[] output = process.getInputStream().readAllBytes();
		boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
		String text = new String(output, StandardCharsets.UTF_8);
		assertThat(finished).as("%s finished", command).isTrue();
		assertThat(process.exitValue()).as("%s failed:%n%s", command, text).isZero();
		return text;
	}

}
