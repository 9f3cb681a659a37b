package dev.agentmiddleware.it;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.agentmiddleware.autoconfigure.mcp.McpResourceUpdates;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code subscriptions/listen} of MCP {@code 2026-07-28} over real HTTP: the stream opens
 * with its acknowledgement, carries the list changes and resource updates of its filter
 * (and no other), each tagged with its subscription id, and ends when its client closes
 * it.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, StatelessMcpSubscriptionsIntegrationTests.Resources.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.ai.mcp.server.streamable-http.keep-alive-interval=100ms",
				"agent.middleware.mcp.resources.subscribe=true",
				"logging.level.dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport=debug" })
@ExtendWith(OutputCaptureExtension.class)
class StatelessMcpSubscriptionsIntegrationTests {

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

	private static final String NOTES = "notes://today";

	@LocalServerPort
	int port;

	@Autowired
	McpSyncServer server;

	@Autowired
	McpResourceUpdates resourceUpdates;

	@Autowired
	ListableBeanFactory beanFactory;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void discoverAdvertisesTheListChangesAndResourceUpdatesThatAreServed() throws Exception {
		JsonNode capabilities = json(post("server/discover", null, "{" + META + "}").body()).get("result")
			.get("capabilities");
		assertThat(capabilities.get("tools").get("listChanged").asBoolean()).isTrue();
		assertThat(capabilities.get("resources").get("listChanged").asBoolean()).isTrue();
		assertThat(capabilities.get("resources").get("subscribe").asBoolean()).isTrue();
		// No prompt is served: no prompts capability at all
		assertThat(capabilities.has("prompts")).isFalse();
	}

	@Test
	void listenStreamOpensWithItsAcknowledgementOfWhatItHonours() throws Exception {
		try (Listener listener = listen("\"s-1\"", "{\"toolsListChanged\":true,\"promptsListChanged\":true,"
				+ "\"resourceSubscriptions\":[\"" + NOTES + "\"]}")) {
			JsonNode first = listener.next();
			assertThat(first.get("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
			assertThat(first.get("params").get("_meta").get(SUBSCRIPTION_ID).asString()).isEqualTo("s-1");
			// Prompts are not served here, so their list changes are not honoured
			assertThat(first.get("params").get("notifications").toString())
				.isEqualTo("{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"" + NOTES + "\"]}");
		}
	}

	@Test
	void listChangeReachesTheListenersThatAskedForItTaggedWithTheirIds() throws Exception {
		try (Listener tools = listen("7", "{\"toolsListChanged\":true}");
				Listener notes = listen("8", "{\"resourceSubscriptions\":[\"" + NOTES + "\"]}")) {
			tools.next();
			notes.next();
			SyncToolSpecification forecast = toolNamed("forecast");
			this.server.removeTool("forecast");
			try {
				JsonNode changed = tools.next();
				assertThat(changed.get("method").asString()).isEqualTo("notifications/tools/list_changed");
				assertThat(changed.get("params").get("_meta").get(SUBSCRIPTION_ID).asInt()).isEqualTo(7);
				// The tool is no longer served to 2026-07-28 clients either
				assertThat(toolNames()).doesNotContain("forecast");
				// The other listener did not ask for list changes: the next thing it gets
				// is the resource update it asked for
				this.resourceUpdates.updated(NOTES);
				JsonNode updated = notes.next();
				assertThat(updated.get("method").asString()).isEqualTo("notifications/resources/updated");
				assertThat(updated.get("params").get("uri").asString()).isEqualTo(NOTES);
				assertThat(updated.get("params").get("_meta").get(SUBSCRIPTION_ID).asInt()).isEqualTo(8);
			}
			finally {
				this.server.addTool(forecast);
			}
			assertThat(tools.next().get("method").asString()).isEqualTo("notifications/tools/list_changed");
			assertThat(toolNames()).contains("forecast");
		}
	}

	@Test
	void resourceUpdateReachesOnlyTheListenersThatNameItsUri() throws Exception {
		try (Listener other = listen("1",
				"{\"resourceSubscriptions\":[\"notes://yesterday\"]," + "\"toolsListChanged\":true}")) {
			other.next();
			this.resourceUpdates.updated(NOTES);
			// Not for this listener: the next thing it gets is a list change it asked for
			SyncToolSpecification forecast = toolNamed("forecast");
			this.server.removeTool("forecast");
			this.server.addTool(forecast);
			assertThat(other.next().get("method").asString()).isEqualTo("notifications/tools/list_changed");
		}
	}

	@Test
	void listenWithoutAFilterIsInvalidParams() throws Exception {
		HttpResponse<String> response = post("subscriptions/listen", null, "{" + META + "}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32602);
	}

	@Test
	void closedListenStreamEnds(CapturedOutput output) throws Exception {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":\"gone\",\"method\":\"subscriptions/listen\",\"params\":"
				+ "{\"notifications\":{\"toolsListChanged\":true}," + META + "}}";
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write(("POST /mcp HTTP/1.1\r\nHost: localhost:" + this.port
					+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
					+ "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n" + "Content-Length: "
					+ body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder received = new StringBuilder();
			while (!received.toString().contains("notifications/subscriptions/acknowledged")) {
				int read = in.read();
				assertThat(read).isNotEqualTo(-1);
				received.append((char) read);
			}
			assertThat(output).contains("subscription opened");
		}
		// Found closed by a keep-alive comment (every 100 ms here)
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(output).contains("subscription ended: its client closed the stream"));
	}

	// The specification the application declared, as Spring AI's server got it
	private SyncToolSpecification toolNamed(String name) {
		return this.beanFactory
			.<List<SyncToolSpecification>>getBeanProvider(
					ResolvableType.forClassWithGenerics(List.class, SyncToolSpecification.class))
			.orderedStream()
			.flatMap(List::stream)
			.filter((tool) -> tool.tool().name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	private List<String> toolNames() throws Exception {
		JsonNode tools = json(post("tools/list", null, "{" + META + "}").body()).get("result").get("tools");
		return tools.valueStream().map((tool) -> tool.get("name").asString()).toList();
	}

	private Listener listen(String id, String filter) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + id
					+ ",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":" + filter + "," + META
					+ "}}"));
		headers("subscriptions/listen", null).forEach(request::header);
		HttpResponse<Stream<String>> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		return new Listener(response.body());
	}

	private HttpResponse<String> post(String method, String name, String params) throws Exception {
		return new RawMcpHttp(this.port).post(headers(method, name),
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	private static Map<String, String> headers(String method, String name) {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", "2026-07-28");
		headers.put("Mcp-Method", method);
		if (name != null) {
			headers.put("Mcp-Name", name);
		}
		return headers;
	}

	private static JsonNode json(String body) {
		return JsonMapper.shared().readTree(body);
	}

	// The messages of a listen stream, read as they arrive
	private static final class Listener implements AutoCloseable {

		private final Stream<String> lines;

		private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();

		Listener(Stream<String> lines) {
			this.lines = lines;
			Thread reader = new Thread(() -> {
				try {
					lines.filter((line) -> line.startsWith("data:"))
						.forEach((line) -> this.messages.add(json(line.substring("data:".length()))));
				}
				catch (RuntimeException ex) {
					// closed
				}
			}, "listen-reader");
			reader.setDaemon(true);
			reader.start();
		}

		JsonNode next() throws InterruptedException {
			JsonNode message = this.messages.poll(10, TimeUnit.SECONDS);
			assertThat(message).as("a message on the listen stream").isNotNull();
			return message;
		}

		@Override
		public void close() {
			this.lines.close();
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Resources {

		@Bean
		List<SyncResourceSpecification> notes() {
			McpSchema.Resource resource = McpSchema.Resource.builder()
				.uri(NOTES)
				.name("today")
				.mimeType("text/plain")
				.build();
			return List
				.of(new SyncResourceSpecification(resource, (exchange, request) -> new McpSchema.ReadResourceResult(
						List.of(new McpSchema.TextResourceContents(NOTES, "text/plain", "Buy milk")))));
		}

	}

}
