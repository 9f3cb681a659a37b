package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The argument limits ({@code agent.middleware.arguments.max-payload-chars}, 64 KiB by default, and
 * {@code max-depth}) hold for MCP clients as for every other caller, and what the server answers to bad input
 * never echoes it whole.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ArgumentLimitsMcpIntegrationTests {

	private static final String MEBIBYTE = "x".repeat(1024 * 1024);

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void writeFileWithOneMebibyteOfContentIsRefusedAndWritesNothing() {
		try (McpSession session = McpSession.open(this.port)) {
			String refused = session.fail("write_file", Map.of("path", "big.txt", "content", MEBIBYTE));
			assertThat(refused).contains("write_file", "exceeds the limit of 65536 characters")
				.doesNotContain("xxxxxxxxxx")
				.hasSizeLessThan(300);
			assertThat(workspace.resolve("big.txt")).doesNotExist();
		}
	}

	@Test
	void argumentsNestedDeeperThanTheLimitAreRefused() {
		Object nested = "leaf";
		for (int i = 0; i < 40; i++) {
			nested = java.util.List.of(nested);
		}
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.fail("write_file", Map.of("path", "deep.txt", "content", nested)))
				.contains("write_file", "'content'");
			assertThat(workspace.resolve("deep.txt")).doesNotExist();
		}
	}

	@Test
	void errorsForAnUnknownToolOrParameterDoNotEchoAHugeName() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String session = RawMcp.initialize(http, this.port);
		String hugeName = "y".repeat(5_000);
		HttpResponse<String> unknownTool = http.send(
				RawMcp.post(this.port, session, RawMcp.toolsCall(2, hugeName, "{}")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(unknownTool.body()).contains("Tool not found").doesNotContain("y".repeat(200)).hasSizeLessThan(1_000);
		HttpResponse<String> unknownParameter = http.send(RawMcp.post(this.port, session,
				RawMcp.toolsCall(3, "read_file", "{\"path\":\"a.txt\",\"" + hugeName + "\":1}")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(unknownParameter.body()).contains("read_file").doesNotContain("y".repeat(200)).hasSizeLessThan(1_000);
	}

}
