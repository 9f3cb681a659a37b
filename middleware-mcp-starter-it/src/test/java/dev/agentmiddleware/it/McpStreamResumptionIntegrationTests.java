package dev.agentmiddleware.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

		public boolean awaitHalfway() throws InterruptedException {
			return this.halfway.await(10, TimeUnit.SECONDS);
		}

		public void release() {
			this.release.countDown();
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
