package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Approvals of MCP {@code 2026-07-28} calls with the official TypeScript SDK 2.x client
 * ({@code src/test/node/mcp-client-v2/modern-approval.mjs}, Node.js 22), which fulfils
 * {@code input_required} with its own handlers and retries: an approval decided by the
 * client's user (its elicitation handler answers the input request {@code approval}), and
 * an approval decided through the REST API while the client retries on the
 * {@code requestState} alone.
 */
@RequiresService({ TestService.NODE, TestService.NODE22 })
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.mcp.input-required.approval-round=1s")
@ActiveProfiles("elicitation")
class TypeScriptModernClientApprovalIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void theClientsUserApprovesThroughItsElicitationHandlerAndTheRetryRunsTheTool() throws Exception {
		Path file = Files.writeString(workspace.resolve("ts-user.txt"), "delete me");

		JsonNode seen = approve("user", "ts-user.txt");

		assertThat(seen.get("protocolVersion").asString()).isEqualTo("2026-07-28");
		assertThat(seen.get("asked")).singleElement()
			.satisfies((message) -> assertThat(message.asString()).contains("delete_file", "ts-user.txt"));
		assertThat(seen.get("isError").asBoolean()).isFalse();
		assertThat(seen.get("text").asString()).isEqualTo("Deleted ts-user.txt");
		assertThat(file).doesNotExist();
		assertThat(new ApprovalApi(this.port, "approver", "approve-me").audit()).anySatisfy((record) -> {
			assertThat(record.get("tool").asString()).isEqualTo("delete_file");
			assertThat(record.get("decidedBy").asString()).isEqualTo("mcp-client ts-sdk-2-approver");
		});
	}

	@Test
	void anApproverDecidesThroughTheApiWhileTheClientRetries() throws Exception {
		Path file = Files.writeString(workspace.resolve("ts-console.txt"), "delete me");
		CompletableFuture<JsonNode> call = CompletableFuture.supplyAsync(() -> {
			try {
				return approve("console", "ts-console.txt");
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		ApprovalApi approver = new ApprovalApi(this.port, "approver", "approve-me");
		JsonNode request = approver.awaitPendingFor("delete_file", "ts-console.txt");
		// Undecided for more than two rounds: the client keeps retrying on the
		// requestState alone
		await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> !call.isDone());
		assertThat(approver.approve(request.get("id").asString()).status()).isEqualTo(200);

		JsonNode seen = call.get(60, TimeUnit.SECONDS);
		assertThat(seen.get("asked")).isEmpty();
		assertThat(seen.get("text").asString()).isEqualTo("Deleted ts-console.txt");
		assertThat(file).doesNotExist();
	}

	private JsonNode approve(String mode, String path) throws Exception {
		TypeScriptModernClientIntegrationTests.installClient();
		String output = TypeScriptModernClientIntegrationTests
			.run(List.of(TestService.node22().orElseThrow().toString(), "modern-approval.mjs",
					"http://localhost:" + this.port + "/mcp", mode, path), 120);
		return JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());
	}

}
