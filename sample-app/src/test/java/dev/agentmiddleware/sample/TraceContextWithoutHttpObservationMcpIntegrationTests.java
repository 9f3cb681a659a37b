package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP {@code traceparent} header of a {@code tools/call} without {@code _meta} trace
 * context, where no HTTP server observation continued it (turned off here): the MCP
 * server reads the header itself, and the call's log line and audit record carry its
 * trace id.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"sample.auditor.username=audrey", "sample.auditor.password=audrey-secret",
				"management.observations.enable.http.server.requests=false" })
@ExtendWith(OutputCaptureExtension.class)
class TraceContextWithoutHttpObservationMcpIntegrationTests {

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
	void httpTraceparentHeaderIsTheCallsTrace(CapturedOutput output) throws Exception {
		String since = Instant.now().minusMillis(1).toString();
		String traceId = TraceContexts.newTraceId();
		String session = RawMcp.initialize(this.http, this.port);
		HttpRequest request = HttpRequest
			.newBuilder(RawMcp.post(this.port, session, RawMcp.toolsCall(2, "list_files", "{}")), (name, value) -> true)
			.header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.body()).contains("\"isError\":false");
		await().untilAsserted(() -> assertThat(output.getOut().lines().filter((line) -> line.contains(traceId)))
			.as("the log lines of the call's trace")
			.anySatisfy((line) -> assertThat(line).contains("list_files")));
		await().untilAsserted(() -> assertThat(TraceContexts.auditRecords(this.port, "list_files", since))
			.contains("\"traceId\":\"" + traceId + "\""));
	}

}
