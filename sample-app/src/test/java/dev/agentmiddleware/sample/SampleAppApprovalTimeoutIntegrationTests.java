package dev.agentmiddleware.sample;

import java.nio.file.Files;
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
 * A dangerous call that nobody decides is denied when the approval timeout passes, and a
 * late decision applies to nothing.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "agent.middleware.approval.timeout=1s",
		"sample.approver.username=alice", "sample.approver.password=alice-secret" })
class SampleAppApprovalTimeoutIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void undecidedCallIsDeniedAtTheTimeoutAndALateDecisionIsRefused() throws Exception {
		Path file = workspace.resolve("slow.txt");
		Files.writeString(file, "keep me");
		ApprovalApi approver = new ApprovalApi(this.port, "alice", "alice-secret");
		try (McpSession session = McpSession.open(this.port)) {
			String denial = session.fail("delete_file", Map.of("path", "slow.txt"));
			assertThat(denial).contains("nobody approved it within 1s")
				.contains("Do not retry this call unless the user asks you to.");
		}
		assertThat(file).exists();
		String id = approver.audit().get(0).get("requestId").asString();
		assertThat(approver.audit().get(0).get("outcome").asString()).isEqualTo("timed-out");
		assertThat(approver.approve(id).status()).isEqualTo(409);
		assertThat(approver.pending()).isEmpty();
		assertThat(file).exists();
	}

}
