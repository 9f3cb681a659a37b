package dev.agentmiddleware.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resumable event streams (SEP-1699) over real HTTP, read as the text the server sends:
 * every stream of a {@code 2025-11-25} session starts with a priming event (an id, empty
 * data) and a {@code retry:} field, every event has an id, and a client that reconnects
 * with {@code GET} and {@code Last-Event-ID} while its call runs gets the events it
 * missed and the answer; another session presenting that id gets none of them.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpStreamResumptionIntegrationTests.Gated.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "agent.middleware.mcp.progress-interval=10ms", "agent.middleware.mcp.transport.sse-retry=2s" })
class McpStreamResumptionIntegrationTests {

	private static final String INITIALIZE_2025_11_25 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
			+ "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
			+ "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

	private static final String USER_AGENT = "resuming-client/1";

	@LocalServerPort
	int port;

	@Autowired
	StepTools steps;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void everyStreamOfA20251125SessionStartsWithAPrimingEventAndEveryEventHasAnId() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		HttpResponse<String> listed = new RawMcpHttp(this.port).post(headers(session),
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		String[] events = listed.body().split("\n\n");
		assertThat(events[0]).matches("id:[0-9a-f]{16}-0\nretry:2000\ndata:");
		String stream = events[0].substring(3, 19);
		assertThat(events[1]).startsWith("id:" + stream + "-1\nevent:message\ndata:{").contains("\"id\":2");
		try (Events listening = get(session, null)) {
			assertThat(listening.next()).matches("id:[0-9a-f]{16}-0\nretry:2000\ndata:");
		}
	}

	@Test
	void theJdkHttpClientOfTheMcpJavaSdkGetsThePrimingEventWithoutRetryWhichItsParserRefuses() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("Mcp-Session-Id", session);
		HttpResponse<String> listed = new RawMcpHttp(this.port).post(headers,
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(listed.body())
			.matches("(?s)id:[0-9a-f]{16}-0\ndata:\n\nid:[0-9a-f]{16}-1\nevent:message\ndata:\\{.*")
			.doesNotContain("retry:");
	}

	@Test
	void aSessionOnAnEarlierProtocolGetsNoPrimingEvent() throws Exception {
		String session = initialize(RawMcpHttp.INITIALIZE);
		HttpResponse<String> listed = new RawMcpHttp(this.port).post(headers(session),
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(listed.body()).startsWith("id:").doesNotContain("retry:").contains("\"id\":2");
	}

	@Test
	void clientThatReconnectsWithLastEventIdWhileItsCallRunsGetsTheEventsItMissedAndTheAnswer() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		String call = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"step\","
				+ "\"arguments\":{},\"_meta\":{\"progressToken\":\"p\"}}}";
		try (Events posted = post(session, call)) {
			String priming = posted.next();
			String primingId = priming.substring(3, priming.indexOf('\n'));
			String stream = primingId.substring(0, primingId.length() - 2);
			assertThat(posted.next()).startsWith("id:" + stream + "-1\n").contains("notifications/progress");
			assertThat(this.steps.awaitHalfway()).isTrue();

			// Another session presenting the id gets its own listening stream, none of
			// this stream's events
			String other = initialize(INITIALIZE_2025_11_25);
			try (Events foreign = get(other, primingId)) {
				assertThat(foreign.next()).doesNotContain(stream).endsWith("data:");
			}

			// As if the progress event was lost with the connection: resumed after the
			// priming event
			try (Events resumed = get(session, primingId)) {
				assertThat(resumed.next()).startsWith("id:" + stream + "-1\n").contains("notifications/progress");
				this.steps.release();
				assertThat(resumed.next()).startsWith("id:" + stream + "-2\n")
					.contains("\"id\":3")
					.contains("finished");
				assertThat(resumed.end()).as("the resumed stream ends after the answer").isTrue();
			}
			assertThat(posted.end()).as("the first connection ends too").isTrue();
		}
	}

	@Test
	void aRequestAnsweredAtOnceSendsItsPrimingEventAndItsAnswerInOneWrite() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		List<String> chunks = chunksOfRawPost(session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
		assertThat(chunks).as("one chunk of events, then the last chunk").hasSize(2);
		assertThat(chunks.get(0)).matches("(?s)id:([0-9a-f]{16})-0\nretry:2000\ndata:\n\nid:\\1-1\nevent:message\n"
				+ "data:\\{.*\"id\":5.*\\}\n\n");
		assertThat(chunks.get(1)).isEmpty();
	}

	@Test
	void aCallStillRunningAfterThePrimingHoldGetsItsPrimingEventBeforeItsAnswer() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		String call = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"hold\","
				+ "\"arguments\":{}}}";
		try (Events posted = post(session, call)) {
			// The call sends nothing while it holds: only the end of the priming hold
			// sends its priming event
			assertThat(posted.next()).matches("id:[0-9a-f]{16}-0\nretry:2000\ndata:");
			assertThat(this.steps.isHolding()).isTrue();
			this.steps.releaseHold();
			assertThat(posted.next()).contains("\"id\":6").contains("held");
			assertThat(posted.end()).isTrue();
		}
	}

	@Test
	void unknownLastEventIdGetsTheListeningStream() throws Exception {
		String session = initialize(INITIALIZE_2025_11_25);
		try (Events listening = get(session, "0123456789abcdef-5")) {
			assertThat(listening.next()).matches("id:[0-9a-f]{16}-0\nretry:2000\ndata:")
				.doesNotContain("0123456789abcdef");
		}
	}

	private String initialize(String body) throws IOException, InterruptedException {
		RawMcpHttp raw = new RawMcpHttp(this.port);
		HttpResponse<String> response = raw.post(body);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(raw.post(headers(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
			.statusCode()).isEqualTo(202);
		return session;
	}

	// As a client other than the MCP Java SDK's sends them (not the JDK's HTTP client's
	// User-Agent)
	private static Map<String, String> headers(String session) {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("Mcp-Session-Id", session);
		headers.put("User-Agent", USER_AGENT);
		return headers;
	}

	// The chunks of the body of a POST answered with chunked transfer encoding, as the
	// server wrote them: one chunk per write of the server
	private List<String> chunksOfRawPost(String session, String body) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			StringBuilder request = new StringBuilder("POST /mcp HTTP/1.1\r\n").append("Host: localhost:")
				.append(this.port)
				.append("\r\n");
			headers(session).forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			request.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.flush();
			String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			int headersEnd = response.indexOf("\r\n\r\n");
			assertThat(response).startsWith("HTTP/1.1 200");
			assertThat(response.substring(0, headersEnd).toLowerCase(Locale.ROOT))
				.contains("transfer-encoding: chunked");
			List<String> chunks = new ArrayList<>();
			int at = headersEnd + 4;
			while (at < response.length()) {
				int sizeEnd = response.indexOf("\r\n", at);
				int size = Integer.parseInt(response.substring(at, sizeEnd).trim(), 16);
				chunks.add(response.substring(sizeEnd + 2, sizeEnd + 2 + size));
				at = sizeEnd + 2 + size + 2;
				if (size == 0) {
					break;
				}
			}
			return chunks;
		}
	}

	private Events post(String session, String body) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.POST(HttpRequest.BodyPublishers.ofString(body));
		headers(session).forEach(request::header);
		return open(request.build());
	}

	private Events get(String session, @Nullable String lastEventId) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.header("User-Agent", USER_AGENT)
			.GET();
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		return open(request.build());
	}

	private Events open(HttpRequest request) throws Exception {
		HttpResponse<InputStream> response = this.http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
			.get(10, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(200);
		return new Events(response.body());
	}

	/**
	 * The events of a stream as the server wrote them (without keep-alive comments), read
	 * on a thread of its own.
	 */
	static final class Events implements AutoCloseable {

		private static final String END = "";

		private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

		private final InputStream body;

		Events(InputStream body) {
			this.body = body;
			Thread reader = new Thread(this::read, "sse-reader");
			reader.setDaemon(true);
			reader.start();
		}

		private void read() {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(this.body, StandardCharsets.UTF_8))) {
				StringBuilder event = new StringBuilder();
				String line;
				while ((line = in.readLine()) != null) {
					if (line.isEmpty()) {
						if (!event.isEmpty()) {
							this.events.add(event.toString());
							event.setLength(0);
						}
					}
					else if (!line.startsWith(":")) {
						event.append(event.isEmpty() ? "" : "\n").append(line);
					}
				}
			}
			catch (IOException ex) {
				// Closed by the test
			}
			this.events.add(END);
		}

		String next() throws InterruptedException {
			String event = this.events.poll(10, TimeUnit.SECONDS);
			assertThat(event).as("an event within 10 s").isNotNull().isNotEqualTo(END);
			return event;
		}

		boolean end() throws InterruptedException {
			return END.equals(this.events.poll(10, TimeUnit.SECONDS));
		}

		@Override
		public void close() throws IOException {
			this.body.close();
		}

	}

	// A class-based proxy wraps the tool bean: the test talks to it through methods, not
	// fields
	public static class StepTools {

		private final CountDownLatch halfway = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		private final CountDownLatch holding = new CountDownLatch(1);

		public boolean awaitHalfway() throws InterruptedException {
			return this.halfway.await(10, TimeUnit.SECONDS);
		}

		public void release() {
			this.release.countDown();
		}

		public boolean isHolding() {
			return this.holding.getCount() > 0;
		}

		public void releaseHold() {
			this.holding.countDown();
		}

		@AgentTool(description = "Sends nothing until the test releases it", safety = SafetyLevel.SAFE,
				openWorld = false)
		public String hold() throws InterruptedException {
			this.holding.await(30, TimeUnit.SECONDS);
			return "held";
		}

		@AgentTool(description = "Reports half of its work, then holds until the test releases it",
				safety = SafetyLevel.SAFE, openWorld = false)
		public String step(ToolProgress progress) throws InterruptedException {
			progress.report(1, 2, "half");
			this.halfway.countDown();
			this.release.await(10, TimeUnit.SECONDS);
			return "finished";
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Gated {

		@Bean
		StepTools stepTools() {
			return new StepTools();
		}

	}

}
