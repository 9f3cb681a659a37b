package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;

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
 * Cancellation with the official MCP TypeScript SDK client:
 * {@code src/test/node/mcp-client/cancel-client.mjs} calls {@code delete_file}, sees its
 * request pending in the approval API, and aborts the call with an {@code AbortSignal}
 * (the SDK sends {@code notifications/cancelled}); the request leaves the approval API
 * (and so the console), the audit says {@code cancelled} with the client's reason, and
 * the file is still there.
 */
@RequiresService(TestService.NODE)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
class TypeScriptClientCancellationIntegrationTests {

	private static final String SCRIPT = "cancel-client.mjs";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void abortedCallOfTheTypeScriptClientWithdrawsItsApprovalAndKeepsTheFile() throws Exception {
		Path file = workspace.resolve("keep-me.txt");
		Files.writeString(file, "still here");
		TypeScriptClientIntegrationTests.installClient();
		Files.copy(Paths.get("src/test/node/mcp-client").resolve(SCRIPT),
				Paths.get("target/ts-mcp-client").resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);

		String base = "http://localhost:" + this.port;
		String output = TypeScriptClientIntegrationTests.run(
				List.of("node", SCRIPT, base + "/mcp", base + "/agent/approvals", "alice:alice-secret", "keep-me.txt"),
				120);
		JsonNode seen = JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());

		String id = seen.get("pending").get("id").asString();
		assertThat(seen.get("pending").get("summary").asString()).isEqualTo("delete_file {\"path\":\"keep-me.txt\"}");
		assertThat(seen.get("call").get("settled").asString()).as("the aborted call rejects in the client")
			.isEqualTo("rejected");
		assertThat(seen.get("call").get("message").asString()).contains("the user pressed stop");
		assertThat(seen.get("pendingAfter")).isEmpty();
		assertThat(seen.get("audit")).singleElement().satisfies((record) -> {
			assertThat(record.get("requestId").asString()).isEqualTo(id);
			assertThat(record.get("outcome").asString()).isEqualTo("cancelled");
			assertThat(record.get("reason").asString())
				.isEqualTo("the client cancelled the request: the user pressed stop");
		});
		assertThat(file).exists().hasContent("still here");
	}

}
