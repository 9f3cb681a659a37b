package dev.agentmiddleware.sample;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * MCP cancellation over raw HTTP against the real sample: a client's
 * {@code notifications/cancelled} for its {@code delete_file} call waiting for approval
 * withdraws the pending request (audited {@code cancelled}), the file stays, the
 * cancelled request gets no response, and the call is counted {@code cancelled}; another
 * session cannot cancel it, an unknown request id is ignored, and a client that goes away
 * cancels its call the same way.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "sample.approver.username=alice",
		"sample.approver.password=alice-secret", "spring.ai.mcp.server.streamable-http.keep-alive-interval=200ms" })
class McpCancellationIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	private final HttpClient http = HttpClient.newHttpClient();

	private ApprovalApi approver;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@BeforeEach
	void approver() {
		this.approver = new ApprovalApi(this.port, "alice", "alice-secret");
	}

	@Test
	void cancelledCallWithdrawsItsApprovalKeepsTheFileAndGetsNoResponse() throws Exception {
		Path file = file("cancel-me.txt");
		String session = RawMcp.initialize(this.http, this.port);
		String other = RawMcp.initialize(this.http, this.port);
		long cancelledBefore = cancelledCalls();
		CompletableFuture<HttpResponse<String>> call = this.http.sendAsync(
				RawMcp.post(this.port, session, RawMcp.toolsCall(7, "delete_file", "{\"path\":\"cancel-me.txt\"}")),
				HttpResponse.BodyHandlers.ofString());
		String id = this.approver.awaitPendingFor("delete_file", "cancel-me.txt").get("id").asString();

		// Another session's cancellation, and one naming an unknown request, are accepted
		// and ignored
		assertThat(notify(other, cancelled("7", "not mine"))).isEqualTo(202);
		assertThat(notify(session, cancelled("99", null))).isEqualTo(202);
		assertThat(notify(session, cancelled("\"7\"", null))).as("the string \"7\" is not the id 7").isEqualTo(202);
		assertThat(pendingIds()).contains(id);
		assertThat(call).isNotDone();

		assertThat(notify(session, cancelled("7", "the user pressed stop"))).isEqualTo(202);

		HttpResponse<String> response = call.get(20, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).as("no JSON-RPC response to a cancelled request")
			.doesNotContain("\"result\"")
			.doesNotContain("\"error\"");
		// The request was withdrawn before the stream ended; the audit record is written
		// by the waking call, a
		// moment after the client saw its stream end
		assertThat(pendingIds()).doesNotContain(id);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(this.approver.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(id);
				assertThat(record.get("outcome").asString()).isEqualTo("cancelled");
				assertThat(record.get("reason").asString())
					.isEqualTo("the client cancelled the request: the user pressed stop");
			}));
		assertThat(this.approver.approve(id).status()).isEqualTo(409);
		assertThat(file).exists();
		await().atMost(Duration.ofSeconds(10)).until(() -> cancelledCalls() == cancelledBefore + 1);
	}

	@Test
	void clientThatGoesAwayWhileItsCallWaitsCancelsTheCall() throws Exception {
		Path file = file("gone.txt");
		String session = RawMcp.initialize(this.http, this.port);
		String id;
		try (Socket gone = new Socket("127.0.0.1", this.port)) {
			byte[] body = RawMcp.toolsCall(3, "delete_file", "{\"path\":\"gone.txt\"}")
				.getBytes(StandardCharsets.UTF_8);
			OutputStream out = gone.getOutputStream();
			out.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
					+ "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\n"
					+ "MCP-Protocol-Version: 2025-06-18\r\nContent-Length: " + body.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(body);
			out.flush();
			id = this.approver.awaitPendingFor("delete_file", "gone.txt").get("id").asString();
		}

		// Found gone by a keep-alive comment (every 200 ms here)
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !pendingIds().contains(id));
		// Written by the waiting call once it wakes, a moment after the request was
		// withdrawn
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(this.approver.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(id);
				assertThat(record.get("outcome").asString()).isEqualTo("cancelled");
				assertThat(record.get("reason").asString()).isEqualTo("the client went away");
			}));
		assertThat(file).exists();
	}

	@Test
	void a20260728ClientThatClosesItsStreamWhileItsCallWaitsCancelsTheCall() throws Exception {
		Path file = file("stateless.txt");
		long cancelledBefore = cancelledCalls();
		long activeBefore = activeRequests();
		String id;
		try (Socket gone = new Socket("127.0.0.1", this.port)) {
			// No session: the request carries its protocol version and capabilities
			// itself
			byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
					+ "\"delete_file\",\"arguments\":{\"path\":\"stateless.txt\"},\"_meta\":{"
					+ "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
					+ "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}}}")
				.getBytes(StandardCharsets.UTF_8);
			OutputStream out = gone.getOutputStream();
			out.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nContent-Type: application/json\r\n"
					+ "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
					+ "Mcp-Method: tools/call\r\nMcp-Name: delete_file\r\nContent-Length: " + body.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(body);
			out.flush();
			// The client declared elicitation, but 2026-07-28 cannot ask it yet: the
			// request waits in the console
			id = this.approver.awaitPendingFor("delete_file", "stateless.txt").get("id").asString();
		}

		// Found closed by a keep-alive comment (every 200 ms here)
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !pendingIds().contains(id));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(this.approver.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(id);
				assertThat(record.get("outcome").asString()).isEqualTo("cancelled");
				assertThat(record.get("reason").asString()).isEqualTo("the client closed the response stream");
			}));
		assertThat(file).exists();
		await().atMost(Duration.ofSeconds(10)).until(() -> cancelledCalls() == cancelledBefore + 1);
		// The request of the client gone is completed, not left open
		await().atMost(Duration.ofSeconds(10)).until(() -> activeRequests() <= activeBefore);
	}

	private Path file(String name) throws Exception {
		Path file = workspace.resolve(name);
		Files.writeString(file, "keep me");
		return file;
	}

	private int notify(String session, String notification) throws Exception {
		return this.http.send(RawMcp.post(this.port, session, notification), HttpResponse.BodyHandlers.ofString())
			.statusCode();
	}

	private static String cancelled(String requestIdJson, String reason) {
		return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + requestIdJson
				+ ((reason != null) ? ",\"reason\":\"" + reason + "\"" : "") + "}}";
	}

	private List<String> pendingIds() {
		return this.approver.pending().stream().map((request) -> request.get("id").asString()).toList();
	}

	private long activeRequests() {
		return this.meterRegistry.find("http.server.requests.active")
			.longTaskTimers()
			.stream()
			.mapToLong(LongTaskTimer::activeTasks)
			.sum();
	}

	private long cancelledCalls() {
		return this.meterRegistry.find("agent.tool.call")
			.tag("agent.tool.name", "delete_file")
			.tag("agent.tool.outcome", "cancelled")
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

}
