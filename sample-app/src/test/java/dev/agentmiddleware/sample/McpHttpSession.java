package dev.agentmiddleware.sample;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One MCP session over plain HTTP requests, sent to whichever instance a test names by
 * its port, as a round-robin load balancer would (the SDK's client keeps one base URL).
 * Responses are read whether the server answered with JSON or with an event stream.
 * <pre>{@code
 * McpHttpSession session = McpHttpSession.initialize(portOfA);
 * session.succeed(portOfB, "write_todos", Map.of("todos", todos));
 * }</pre>
 */
final class McpHttpSession {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http;

	private final String id;

	private final AtomicInteger requestIds = new AtomicInteger(10);

	private McpHttpSession(HttpClient http, String id) {
		this.http = http;
		this.id = id;
	}

	/**
	 * Initializes a session on the instance at this port.
	 * @param http the client to send every request with
	 * @param port the instance's port
	 * @return the session
	 */
	static McpHttpSession initialize(HttpClient http, int port) throws Exception {
		return new McpHttpSession(http, RawMcp.initialize(http, port));
	}

	static McpHttpSession initialize(int port) throws Exception {
		return initialize(HttpClient.newHttpClient(), port);
	}

	String id() {
		return this.id;
	}

	int nextRequestId() {
		return this.requestIds.incrementAndGet();
	}

	CompletableFuture<JsonNode> callAsync(int port, String tool, Map<String, Object> arguments) {
		int requestId = nextRequestId();
		return this.http
			.sendAsync(
					RawMcp.post(port, this.id, RawMcp.toolsCall(requestId, tool, JSON.writeValueAsString(arguments))),
					HttpResponse.BodyHandlers.ofString())
			.thenApply((response) -> response(response, requestId));
	}

	String succeed(int port, String tool, Map<String, Object> arguments) throws Exception {
		JsonNode response = callAsync(port, tool, arguments).get(30, TimeUnit.SECONDS);
		assertThat(response.get("result").path("isError").asBoolean(false))
			.as("%s %s failed: %s", tool, arguments, response)
			.isFalse();
		return text(response);
	}

	String fail(int port, String tool, Map<String, Object> arguments) throws Exception {
		JsonNode response = callAsync(port, tool, arguments).get(30, TimeUnit.SECONDS);
		assertThat(response.get("result").path("isError").asBoolean(false))
			.as("%s %s succeeded: %s", tool, arguments, response)
			.isTrue();
		return text(response);
	}

	/**
	 * Sends a JSON-RPC request of this session.
	 * @param port the instance's port
	 * @param body the request, with an {@code id}
	 * @return the response with that id
	 */
	JsonNode send(int port, String body) throws Exception {
		int requestId = JSON.readTree(body).get("id").asInt();
		return response(this.http.send(RawMcp.post(port, this.id, body), HttpResponse.BodyHandlers.ofString()),
				requestId);
	}

	/**
	 * The text of a {@code tools/call} response with one content block.
	 * @param response the JSON-RPC response
	 * @return its text
	 */
	static String text(JsonNode response) {
		JsonNode content = response.get("result").get("content");
		assertThat(content.size()).as("%s", response).isEqualTo(1);
		return content.get(0).get("text").asString();
	}

	// The JSON-RPC response with this id, whether the server answered with JSON or with
	// an event stream.
	private static JsonNode response(HttpResponse<String> response, int id) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String contentType = response.headers().firstValue("Content-Type").orElse("");
		if (!contentType.startsWith("text/event-stream")) {
			return JSON.readTree(response.body());
		}
		for (String line : response.body().split("\r?\n")) {
			if (line.startsWith("data:")) {
				JsonNode message = JSON.readTree(line.substring(5).trim());
				if (message.path("id").asInt(-1) == id && (message.has("result") || message.has("error"))) {
					return message;
				}
			}
		}
		throw new AssertionError("No response to request " + id + " in: " + response.body());
	}

}
