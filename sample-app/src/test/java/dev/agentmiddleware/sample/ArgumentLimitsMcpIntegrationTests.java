package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The argument limits ({@code agent.middleware.arguments.max-payload-chars}, 64 KiB by
 * default, and {@code max-depth}) hold for MCP clients as for every other caller, and
 * what the server answers to bad input never echoes it whole.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
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
			assertThat(session.fail("write_file", Map.of("path", "deep.txt", "content", nested))).contains("write_file",
					"'content'");
			assertThat(workspace.resolve("deep.txt")).doesNotExist();
		}
	}

	@Test
	void approvalApiRefusalsOfChangedArgumentsDoNotEchoThem() throws Exception {
		ApprovalApi approver = new ApprovalApi(this.port, "alice", "alice-secret");
		try (McpSession session = McpSession.open(this.port)) {
			CompletableFuture<CallToolResult> call = session.callAsync("delete_file", Map.of("path", "kept.txt"));
			String id = approver.awaitPendingFor("delete_file", "kept.txt").get("id").asString();
			ApprovalApi.Response unknownParameter = approver.approveWithArguments(id,
					Map.of("path", "kept.txt", "y".repeat(5_000), 1));
			assertThat(unknownParameter.status()).isEqualTo(400);
			assertThat(unknownParameter.body()).contains("delete_file")
				.doesNotContain("y".repeat(200))
				.hasSizeLessThan(400);
			ApprovalApi.Response huge = approver.approveWithArguments(id, Map.of("path", MEBIBYTE));
			assertThat(huge.status()).isEqualTo(400);
			assertThat(huge.body()).contains("exceeds the limit of 65536")
				.doesNotContain("xxxxxxxxxx")
				.hasSizeLessThan(400);
			assertThat(approver.deny(id, "test over").status()).isEqualTo(200);
			assertThat(call.get(30, TimeUnit.SECONDS).isError()).isTrue();
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
		assertThat(unknownTool.body()).contains("Tool not found")
			.doesNotContain("y".repeat(200))
			.hasSizeLessThan(1_000);
		HttpResponse<String> unknownParameter = http.send(
				RawMcp.post(this.port, session,
						RawMcp.toolsCall(3, "read_file", "{\"path\":\"a.txt\",\"" + hugeName + "\":1}")),
				HttpResponse.BodyHandlers.ofString());
		assertThat(unknownParameter.body()).contains("read_file")
			.doesNotContain("y".repeat(200))
			.hasSizeLessThan(1_000);
	}

}
