package dev.agentmiddleware.sample;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code agent.middleware.approval.allow-self-approval=true} the caller of a request
 * may approve it itself, and startup says so once.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = AuthorizationMcpIntegrationTests.RecordsApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "spring.config.name=authorization-it",
				"agent.middleware.todo.enabled=false", "agent.middleware.approval.allow-self-approval=true" })
class SelfApprovalAllowedIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void theCallerApprovesItsOwnCallAndStartupWarnedOnce(CapturedOutput output) throws Exception {
		ApprovalApi self = new ApprovalApi(this.port, "alice", AuthorizationMcpIntegrationTests.PASSWORD);
		try (McpSession writer = McpSession.openAs(this.port, "alice", AuthorizationMcpIntegrationTests.PASSWORD)) {
			CompletableFuture<CallToolResult> call = writer.callAsync("purge_records", Map.of());
			JsonNode request = self.awaitPending((pending) -> pending.get("tool").asString().equals("purge_records"));
			assertThat(request.get("principal").asString()).isEqualTo("alice");
			assertThat(self.approve(request.get("id").asString()).status()).isEqualTo(200);
			assertThat(McpSession.text(call.get(20, TimeUnit.SECONDS))).isEqualTo("purged 2 records");
		}
		assertThat(output.getAll()
			.lines()
			.filter((line) -> line.contains("allow-self-approval is true"))
			.filter((line) -> line.contains("WARN"))).hasSize(1);
	}

}
