package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.tool.SessionFingerprint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session id works like a bearer secret (whoever presents it continues the session with
 * its grants), so nothing the server adds shows it: after a session was granted "approve
 * for session" through the approval API, the approval listing and audit (which the
 * console renders), the console page, the actuator endpoint and the INFO log show the
 * session's fingerprint, never its id.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
@ExtendWith(OutputCaptureExtension.class)
class SessionFingerprintIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void noResponseNorInfoLogLineShowsTheSessionIdOnlyItsFingerprint(CapturedOutput output) throws Exception {
		Files.writeString(workspace.resolve("granted.txt"), "delete me");
		HttpClient http = HttpClient.newHttpClient();
		String sessionId = RawMcp.initialize(http, this.port);
		String fingerprint = SessionFingerprint.of(sessionId);
		CompletableFuture<HttpResponse<String>> call = http.sendAsync(
				RawMcp.post(this.port, sessionId, RawMcp.toolsCall(7, "delete_file", "{\"path\":\"granted.txt\"}")),
				HttpResponse.BodyHandlers.ofString());

		ApprovalApi approver = new ApprovalApi(this.port, "alice", "alice-secret");
		JsonNode pending = approver.awaitPendingFor("delete_file", "granted.txt");
		assertThat(pending.get("session").asString()).isEqualTo(fingerprint);
		assertThat(approver.get("").body()).contains(fingerprint).doesNotContain(sessionId);
		assertThat(approver.approveForSession(pending.get("id").asString()).status()).isEqualTo(200);
		assertThat(call.get(30, TimeUnit.SECONDS).body()).contains("Deleted granted.txt");

		ApprovalApi.Response audit = approver.get("/audit");
		assertThat(audit.body()).contains(fingerprint).doesNotContain(sessionId);
		assertThat(approver.console().body()).doesNotContain(sessionId);
		HttpResponse<String> actuator = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/agentmiddleware"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(actuator.statusCode()).isEqualTo(200);
		assertThat(actuator.body()).contains(fingerprint).doesNotContain(sessionId);
		assertThat(output.getAll()).contains("session=" + fingerprint).doesNotContain(sessionId);
	}

}
