package dev.agentmiddleware.sample;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.agentmiddleware.approval.ApprovalStore;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away in the middle of a call ends its request (found gone by a
 * keep-alive comment or by the call's own next message), and the application stops within
 * a few seconds with clients connected (one waiting for an approval, one running a slow
 * tool, one holding its event stream) and one gone, each call still in flight answered
 * that it was abandoned: the README's promise, over real sockets against the real app.
 */
class ClientDisconnectIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	// A client holding the app up would make stopping wait for the whole
	// graceful-shutdown phase (set here, so that
	// the bound does not depend on Spring Boot's default); a quick stop takes a few
	// seconds at most, also on a loaded
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
		// The server ends a request's observation just after the client has the response:
		// the set-up's two requests
		// may still count for a moment. Nothing else is open, so idle is none at all
		awaitTrue(() -> activeRequests(meters) == 0, "the set-up requests end");
		long idle = 0;

		try (Socket gone = new Socket("127.0.0.1", port)) {
			post(gone, port, session, RawMcp.toolsCall(2, "delete_file", "{\"path\":\"notes.txt\"}"));
			awaitTrue(() -> approvals.pending(Instant.now()).size() == 1, "the call waits for approval");
			assertThat(activeRequests(meters)).isEqualTo(idle + 1);
		}
		awaitTrue(() -> activeRequests(meters) == idle, "the request of the client that went away ends");

		try (Socket waiting = new Socket("127.0.0.1", port);
				Socket slow = new Socket("127.0.0.1", port);
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

	@Test
	void aCallInFlightWhenTheServerStopsIsAnsweredThatItWasAbandonedAndWhetherItsToolRan() throws Exception {
		this.context = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--sample.workspace.root=" + this.workspace, "--spring.main.banner-mode=off",
				"--agent.middleware.timeout.tools.generate-report.timeout=60s", "--server.shutdown=graceful",
				"--spring.lifecycle.timeout-per-shutdown-phase=" + GRACEFUL_SHUTDOWN_PHASE.toSeconds() + "s");
		int port = Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port"));
		ApprovalStore approvals = this.context.getBean(ApprovalStore.class);
		HttpClient http = HttpClient.newHttpClient();
		String session = RawMcp.initialize(http, port);
		StreamedAnswer running = StreamedAnswer.of(http,
				RawMcp.post(port, session,
						"{\"jsonrpc\":\"2.0\",\"id\":4,"
								+ "\"method\":\"tools/call\",\"params\":{\"name\":\"generate_report\",\"arguments\":"
								+ "{\"topic\":\"q3\",\"seconds\":30},\"_meta\":{\"progressToken\":\"report\"}}}"));
		StreamedAnswer waiting = StreamedAnswer.of(http,
				RawMcp.post(port, session, RawMcp.toolsCall(5, "delete_file", "{\"path\":\"notes.txt\"}")));
		awaitTrue(() -> running.saw("notifications/progress"), "the report's tool runs");
		awaitTrue(() -> approvals.pending(Instant.now()).size() == 1, "the deletion waits for approval");

		long stopping = System.nanoTime();
		this.context.close();

		// Both clients learn at once that their calls were abandoned (the TypeScript SDK
		// would otherwise wait ~55 s)
		String runningAnswer = running.answer().get(BOUND.toSeconds(), TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(running.answeredAt() - stopping)).isLessThan(BOUND);
		assertThat(runningAnswer).contains("\"id\":4", "\"isError\":true", "abandoned because the server is stopping",
				"The tool had started and may have run");
		String waitingAnswer = waiting.answer().get(BOUND.toSeconds(), TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(waiting.answeredAt() - stopping)).isLessThan(BOUND);
		// Answered by the transport, or by the approval wait that the shutdown ended a
		// moment earlier
		assertThat(waitingAnswer).contains("\"id\":5", "\"isError\":true")
			.containsAnyOf("The tool was not started, so nothing was done",
					"still waiting for approval when the application shut down, so it was not approved");
	}

	@Test
	void aClientFoundGoneByAMessageEndsItsRequestAndCancelsItsCall() throws Exception {
		// No keep-alive comments: the tool's own progress notification is the first write
		// to find the client gone
		this.context = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--sample.workspace.root=" + this.workspace, "--spring.main.banner-mode=off",
				"--spring.ai.mcp.server.streamable-http.keep-alive-interval=0s",
				"--agent.middleware.mcp.progress-interval=10ms",
				"--agent.middleware.timeout.tools.generate-report.timeout=60s");
		int port = Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port"));
		MeterRegistry meters = this.context.getBean(MeterRegistry.class);
		HttpClient http = HttpClient.newHttpClient();
		String session = RawMcp.initialize(http, port);
		awaitTrue(() -> activeRequests(meters) == 0, "the set-up requests end");

		try (Socket gone = new Socket("127.0.0.1", port)) {
			post(gone, port, session,
					"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":"
							+ "{\"name\":\"generate_report\",\"arguments\":{\"topic\":\"q4\",\"seconds\":20},"
							+ "\"_meta\":{\"progressToken\":\"report\"}}}");
			gone.setSoTimeout((int) BOUND.toMillis());
			readUntil(gone.getInputStream(), "notifications/progress");
			assertThat(activeRequests(meters)).isEqualTo(1);
		}

		// The tool reports once a second: its next reports find the client gone; the call
		// is cancelled (its timed
		// attempt no longer waited for) and the request completes, long before the tool's
		// 20 s
		awaitTrue(() -> cancelledCalls(meters, "generate_report") == 1, "the call is cancelled");
		awaitTrue(() -> activeRequests(meters) == 0, "the request of the client that went away ends");
	}

	private static void readUntil(InputStream in, String text) throws Exception {
		StringBuilder seen = new StringBuilder();
		byte[] buffer = new byte[1024];
		while (seen.indexOf(text) < 0) {
			int read = in.read(buffer);
			assertThat(read).as("the stream ended before '%s' came: %s", text, seen).isPositive();
			seen.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
		}
	}

	private static long cancelledCalls(MeterRegistry meters, String tool) {
		return meters.find("agent.tool.call")
			.tag("agent.tool.name", tool)
			.tag("agent.tool.outcome", "cancelled")
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	private static void post(Socket socket, int port, String session, String body) throws Exception {
		byte[] content = body.getBytes(StandardCharsets.UTF_8);
		send(socket,
				"POST /mcp HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: application/json\r\n"
						+ "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\n"
						+ "MCP-Protocol-Version: 2025-06-18\r\nContent-Length: " + content.length + "\r\n\r\n",
				body);
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

	/**
	 * The event stream answering one POST, read line by line on a thread of its own as it
	 * arrives.
	 */
	private static final class StreamedAnswer {

		private final StringBuffer seen = new StringBuffer();

		private final CompletableFuture<String> answer = new CompletableFuture<>();

		private volatile long answeredAt;

		static StreamedAnswer of(HttpClient http, HttpRequest request) {
			StreamedAnswer streamed = new StreamedAnswer();
			Thread reader = new Thread(() -> streamed.read(http, request), "answer-reader");
			reader.setDaemon(true);
			reader.start();
			return streamed;
		}

		private void read(HttpClient http, HttpRequest request) {
			try (BufferedReader lines = new BufferedReader(new InputStreamReader(
					http.send(request, HttpResponse.BodyHandlers.ofInputStream()).body(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = lines.readLine()) != null) {
					this.seen.append(line).append('\n');
					if (line.startsWith("data:") && (line.contains("\"result\"") || line.contains("\"error\""))) {
						this.answeredAt = System.nanoTime();
						this.answer.complete(line);
					}
				}
				this.answer.completeExceptionally(new AssertionError("the stream ended unanswered: " + this.seen));
			}
			catch (Exception ex) {
				this.answer.completeExceptionally(ex);
			}
		}

		boolean saw(String text) {
			return this.seen.indexOf(text) >= 0;
		}

		CompletableFuture<String> answer() {
			return this.answer;
		}

		long answeredAt() {
			return this.answeredAt;
		}

	}

}
