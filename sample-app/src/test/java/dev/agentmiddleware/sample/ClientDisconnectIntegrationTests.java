package dev.agentmiddleware.sample;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import dev.agentmiddleware.approval.ApprovalStore;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away in the middle of a call ends its request, and the application stops within a few seconds
 * with clients connected (one waiting for an approval, one running a slow tool, one holding its event stream) and
 * one gone: the README's promise, over real sockets against the real app.
 */
class ClientDisconnectIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	// A client holding the app up would make stopping wait for the whole graceful-shutdown phase (set here, so that
	// the bound does not depend on Spring Boot's default); a quick stop takes a few seconds at most, also on a loaded
	// 2-core CI machine. The bound sits well between the two.
	private static final Duration GRACEFUL_SHUTDOWN_PHASE = Duration.ofSeconds(60);

	private static final Duration QUICK_STOP = Duration.ofSeconds(20);

	@TempDir
	Path workspace;

	private ConfigurableApplicationContext context;

	@AfterEach
	void closeContext() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void aClientThatDisconnectsMidCallEndsItsRequestAndShutdownIsQuick() throws Exception {
		this.context = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--sample.workspace.root=" + this.workspace, "--spring.main.banner-mode=off",
				"--spring.ai.mcp.server.streamable-http.keep-alive-interval=200ms", "--server.shutdown=graceful",
				"--spring.lifecycle.timeout-per-shutdown-phase=" + GRACEFUL_SHUTDOWN_PHASE.toSeconds() + "s");
		int port = Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port"));
		MeterRegistry meters = this.context.getBean(MeterRegistry.class);
		ApprovalStore approvals = this.context.getBean(ApprovalStore.class);
		HttpClient http = HttpClient.newHttpClient();
		String session = RawMcp.initialize(http, port);
		// The server ends a request's observation just after the client has the response: the set-up's two requests
		// may still count for a moment. Nothing else is open, so idle is none at all
		awaitTrue(() -> activeRequests(meters) == 0, "the set-up requests end");
		long idle = 0;

		try (Socket gone = new Socket("127.0.0.1", port)) {
			post(gone, port, session, RawMcp.toolsCall(2, "delete_file", "{\"path\":\"notes.txt\"}"));
			awaitTrue(() -> approvals.pending(Instant.now()).size() == 1, "the call waits for approval");
			assertThat(activeRequests(meters)).isEqualTo(idle + 1);
		}
		awaitTrue(() -> activeRequests(meters) == idle, "the request of the client that went away ends");

		try (Socket waiting = new Socket("127.0.0.1", port); Socket slow = new Socket("127.0.0.1", port);
				Socket listening = new Socket("127.0.0.1", port)) {
			send(listening, "GET /mcp HTTP/1.1\r\nHost: localhost:" + port + "\r\nAccept: text/event-stream\r\n"
					+ "Mcp-Session-Id: " + session + "\r\n\r\n", "");
			post(waiting, port, session, RawMcp.toolsCall(3, "delete_file", "{\"path\":\"other.txt\"}"));
			post(slow, port, session, RawMcp.toolsCall(4, "generate_report", "{\"topic\":\"q3\",\"seconds\":1}"));
			awaitTrue(() -> activeRequests(meters) == idle + 3, "the calls run and the event stream is open");
			long start = System.nanoTime();
			this.context.close();
			Duration shutdown = Duration.ofNanos(System.nanoTime() - start);
			assertThat(shutdown).as("shutdown with connected and disconnected clients").isLessThan(QUICK_STOP);
			assertThat(responseOf(waiting)).startsWith("HTTP/1.1 200");
		}
	}

	private static void post(Socket socket, int port, String session, String body) throws Exception {
		byte[] content = body.getBytes(StandardCharsets.UTF_8);
		send(socket, "POST /mcp HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: application/json\r\n"
				+ "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\n"
				+ "MCP-Protocol-Version: 2025-06-18\r\nContent-Length: " + content.length + "\r\n\r\n", body);
	}

	private static void send(Socket socket, String head, String body) throws Exception {
		OutputStream out = socket.getOutputStream();
		out.write(head.getBytes(StandardCharsets.US_ASCII));
		out.write(body.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	private static String responseOf(Socket socket) throws Exception {
		socket.setSoTimeout((int) BOUND.toMillis());
		InputStream in = socket.getInputStream();
		return new String(in.readNBytes(15), StandardCharsets.US_ASCII);
	}

	private static long activeRequests(MeterRegistry meters) {
		return meters.find("http.server.requests.active")
			.longTaskTimers()
			.stream()
			.mapToLong(LongTaskTimer::activeTasks)
			.sum();
	}

	private static void awaitTrue(BooleanSupplier condition, String what) {
		Awaitility.await(what).atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
	}

}
