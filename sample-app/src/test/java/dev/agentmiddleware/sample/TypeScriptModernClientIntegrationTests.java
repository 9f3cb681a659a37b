package dev.agentmiddleware.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
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
 * The sample app served to the official MCP TypeScript SDK 2.x client
 * ({@code @modelcontextprotocol/client} from npm, which speaks MCP 2026-07-28 once asked
 * to negotiate) and, on the same running server, to the 1.x client, which speaks
 * 2025-11-25: {@code src/test/node/mcp-client-v2/*.mjs}, installed with {@code npm ci}
 * from its committed lock file into {@code target/}, run with Node.js 22.
 */
@RequiresService({ TestService.NODE, TestService.NODE22 })
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class TypeScriptModernClientIntegrationTests {

	private static final Path CLIENT_SOURCES = Paths.get("src/test/node/mcp-client-v2");

	private static final Path CLIENT_DIRECTORY = Paths.get("target/ts-mcp-client-v2");

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void modernClientCallsGovernedToolsWithoutASession() throws Exception {
		JsonNode seen = runModern("modern-client.mjs");

		assertThat(seen.get("protocolVersion").asString()).isEqualTo("2026-07-28");
		assertThat(seen.get("era").asString()).isEqualTo("modern");
		assertThat(seen.get("sessionId").isNull()).isTrue();
		assertThat(seen.get("serverName").asString()).isEqualTo("agent-middleware-sample");
		List<String> tools = new ArrayList<>();
		seen.get("tools").forEach((tool) -> tools.add(tool.asString()));
		assertThat(tools).contains("get_weather", "delete_file", "plan_trip");

		JsonNode weather = seen.get("weather");
		assertThat(weather.get("isError").asBoolean()).isFalse();
		assertThat(weather.get("structuredContent").get("city").asString()).isEqualTo("Typescript Town");
		// Refused by the chain's argument binding, as on a session
		JsonNode refused = seen.get("refused");
		assertThat(refused.get("isError").asBoolean()).isTrue();
		assertThat(refused.get("text").asString()).contains("get_weather").contains("'country'");
	}

	@Test
	void clientOfTheEarlierRevisionIsServedUnchangedBesideTheModernOne() throws Exception {
		JsonNode modern = runModern("modern-client.mjs");
		TypeScriptClientIntegrationTests.installClient();
		String output = TypeScriptClientIntegrationTests
			.run(List.of("node", "client.mjs", "http://localhost:" + this.port + "/mcp"), 120);
		JsonNode legacy = JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());

		assertThat(modern.get("protocolVersion").asString()).isEqualTo("2026-07-28");
		assertThat(legacy.get("protocolVersion").asString()).isEqualTo("2025-11-25");
		assertThat(legacy.get("weather").get("structuredContent").get("city").asString()).isEqualTo("Typescript Town");
		assertThat(legacy.get("refused").get("text").asString()).contains("'country'");
	}

	private JsonNode runModern(String script) throws IOException, InterruptedException {
		installClient();
		String output = run(List.of(TestService.node22().orElseThrow().toString(), script,
				"http://localhost:" + this.port + "/mcp"), 120);
		return JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());
	}

	static void installClient() throws IOException, InterruptedException {
		Files.createDirectories(CLIENT_DIRECTORY);
		try (var sources = Files.list(CLIENT_SOURCES)) {
			for (Path source : sources.toList()) {
				Files.copy(source, CLIENT_DIRECTORY.resolve(source.getFileName()), StandardCopyOption.REPLACE_EXISTING);
			}
		}
		if (!Files.isDirectory(CLIENT_DIRECTORY.resolve("node_modules/@modelcontextprotocol/client"))) {
			run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
		}
	}

	static String run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(CLIENT_DIRECTORY.toFile())
			.redirectErrorStream(true)
			.start();
		process.getOutputStream().close();
		byte[] output = process.getInputStream().readAllBytes();
		boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
		String text = new String(output, StandardCharsets.UTF_8);
		assertThat(finished).as("%s finished", command).isTrue();
		assertThat(process.exitValue()).as("%s failed:%n%s", command, text).isZero();
		return text;
	}

}
