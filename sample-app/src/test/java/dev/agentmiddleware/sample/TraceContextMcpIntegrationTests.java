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
 * The caller's trace context over raw MCP requests: {@code _meta.traceparent} wins over
 * the HTTP {@code traceparent} header, the header counts where {@code _meta} has none,
 * and a malformed value is ignored (the call runs, in a trace of its own) and echoed
 * nowhere.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"sample.auditor.username=audrey", "sample.auditor.password=audrey-secret" })
@ExtendWith(OutputCaptureExtension.class)
class TraceContextMcpIntegrationTests {

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
	void metaTraceparentIsTheCallsTraceOverTheHttpHeader(CapturedOutput output) throws Exception {
		String since = Instant.now().minusMillis(1).toString();
		String metaTraceId = TraceContexts.newTraceId();
		String headerTraceId = TraceContexts.newTraceId();
		HttpResponse<String> response = call(toolsCallWithMeta("\"traceparent\":\"" + traceparent(metaTraceId) + "\""),
				traceparent(headerTraceId));
		assertThat(response.body()).contains("\"isError\":false");
		assertLoggedInTrace(output, metaTraceId);
		await().untilAsserted(() -> assertThat(TraceContexts.auditRecords(this.port, "list_files", since))
			.contains("\"traceId\":\"" + metaTraceId + "\"")
			.doesNotContain(headerTraceId));
	}

	@Test
	void httpTraceparentHeaderIsTheCallsTraceWhereMetaHasNone(CapturedOutput output) throws Exception {
		String since = Instant.now().minusMillis(1).toString();
		String traceId = TraceContexts.newTraceId();
		HttpResponse<String> response = call(RawMcp.toolsCall(2, "list_files", "{}"), traceparent(traceId));
		assertThat(response.body()).contains("\"isError\":false");
		assertLoggedInTrace(output, traceId);
		await().untilAsserted(() -> assertThat(TraceContexts.auditRecords(this.port, "list_files", since))
			.contains("\"traceId\":\"" + traceId + "\""));
	}

	@Test
	void malformedTraceContextIsIgnoredAndNeverEchoed(CapturedOutput output) throws Exception {
		String since = Instant.now().minusMillis(1).toString();
		String marker = "c0ffee" + TraceContexts.newTraceId().substring(6);
		// Upper case hex, and a tracestate too long to keep
		String malformed = "00-" + marker.toUpperCase() + "-00f067aa0ba902b7-01";
		HttpResponse<String> response = call(toolsCallWithMeta("\"traceparent\":\"" + malformed
				+ "\",\"tracestate\":\"v=" + marker + "x".repeat(600) + "\",\"baggage\":\"k=" + marker + "\""), null);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"isError\":false").doesNotContainIgnoringCase(marker);
		await().untilAsserted(() -> assertThat(TraceContexts.auditRecords(this.port, "list_files", since))
			.contains("\"outcome\":\"succeeded\"")
			.containsPattern("\"traceId\":\"[0-9a-f]{32}\"")
			.doesNotContainIgnoringCase(marker));
		assertThat(output.getAll()).doesNotContainIgnoringCase(marker);
	}

	private HttpResponse<String> call(String body, String traceparentHeader) throws Exception {
		String session = RawMcp.initialize(this.http, this.port);
		HttpRequest request = RawMcp.post(this.port, session, body);
		if (traceparentHeader != null) {
			request = HttpRequest.newBuilder(request, (name, value) -> true)
				.header("traceparent", traceparentHeader)
				.build();
		}
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static void assertLoggedInTrace(CapturedOutput output, String traceId) {
		await().untilAsserted(() -> assertThat(output.getOut().lines().filter((line) -> line.contains(traceId)))
			.as("the log lines of the call's trace")
			.anySatisfy((line) -> assertThat(line).contains("list_files")));
	}

	private static String toolsCallWithMeta(String meta) {
		return "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"list_files\","
				+ "\"arguments\":{},\"_meta\":{" + meta + "}}}";
	}

	private static String traceparent(String traceId) {
		return "00-" + traceId + "-00f067aa0ba902b7-01";
	}

}
