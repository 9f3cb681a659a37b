package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code approve-writes} profile lists {@code write_file} as sensitive: its calls
 * wait for the approver too, while read-only tools still run at once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
@ActiveProfiles("approve-writes")
class SampleAppApproveWritesProfileIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void writeFileWaitsForTheApproverWhileReadsRunAtOnce() throws Exception {
		Files.writeString(workspace.resolve("notes.txt"), "old");
		ApprovalApi approver = new ApprovalApi(this.port, "alice", "alice-secret");
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.succeed("read_file", Map.of("path", "notes.txt"))).isEqualTo("old");
			CompletableFuture<CallToolResult> write = session.callAsync("write_file",
					Map.of("path", "notes.txt", "content", "new"));
			JsonNode request = approver.awaitPendingFor("write_file", "notes.txt");
			assertThat(request.get("safety").asString()).isEqualTo("MODERATE");
			assertThat(Files.readString(workspace.resolve("notes.txt"))).isEqualTo("old");
			assertThat(approver.approve(request.get("id").asString()).status()).isEqualTo(200);
			assertThat(McpSession.text(write.get(10, TimeUnit.SECONDS))).startsWith("Wrote");
		}
		assertThat(Files.readString(workspace.resolve("notes.txt"))).isEqualTo("new");
	}

}
