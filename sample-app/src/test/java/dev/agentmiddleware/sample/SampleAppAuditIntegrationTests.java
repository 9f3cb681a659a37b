package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The audit trail over the real sample app (its database, which keeps the records): MCP
 * calls (one that runs, one with invalid arguments) show up in {@code GET /agent/audit}
 * and its JSON Lines export for the auditor account ({@code sample.auditor.*}) only;
 * anonymous requests get 401 and the approver 403.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"sample.auditor.username=audrey", "sample.auditor.password=audrey-secret" })
class SampleAppAuditIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void theAuditorReadsEveryMcpCallAndNobodyElseDoes() throws Exception {
		// The sample keeps its records in its database, which outlives a run: only this
		// test's calls count
		String since = "&from=" + Instant.now().minusMillis(1);
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("list_files", Map.of());
			session.fail("list_files", Map.of("directory", Map.of("not", "a string")));
		}
		assertThat(get("/agent/audit", null).statusCode()).isEqualTo(401);
		assertThat(get("/agent/audit", "alice:alice-secret").statusCode()).isEqualTo(403);
		assertThat(get("/agent/audit", "audrey:wrong").statusCode()).isEqualTo(401);
		await().untilAsserted(() -> {
			HttpResponse<String> page = get("/agent/audit?tool=list_files" + since, "audrey:audrey-secret");
			assertThat(page.statusCode()).isEqualTo(200);
			assertThat(page.body()).contains("\"outcome\":\"succeeded\"")
				.contains("\"outcome\":\"invalid_arguments\"")
				.contains("\"source\":\"mcp\"")
				.contains("\"sessionFingerprint\":\"sid-")
				.doesNotContain("not\\\":\\\"a string")
				.doesNotContain("\"a string\"");
		});
		HttpResponse<String> invalid = get("/agent/audit?outcome=invalid_arguments" + since, "audrey:audrey-secret");
		assertThat(invalid.body()).contains("invalid_arguments").doesNotContain("\"outcome\":\"succeeded\"");
		HttpResponse<String> export = get("/agent/audit/export?tool=list_files" + since, "audrey:audrey-secret");
		assertThat(export.statusCode()).isEqualTo(200);
		assertThat(export.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/x-ndjson"));
		assertThat(export.body().lines()).hasSize(2).allSatisfy((line) -> assertThat(line).startsWith("{\"time\":"));
		assertThat(get("/agent/audit?outcome=nonsense", "audrey:audrey-secret").statusCode()).isEqualTo(400);
	}

	private HttpResponse<String> get(String path, String credentials) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
