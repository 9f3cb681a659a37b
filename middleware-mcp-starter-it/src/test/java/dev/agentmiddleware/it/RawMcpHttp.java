package dev.agentmiddleware.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plain HTTP requests to an MCP endpoint, with full control over headers and body, as a
 * hostile or broken client sends them.
 */
final class RawMcpHttp {

	static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
			+ "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

	private final int port;

	private final HttpClient http = HttpClient.newHttpClient();

	RawMcpHttp(int port) {
		this.port = port;
	}

	static Map<String, String> jsonHeaders() {
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put("Content-Type", "application/json");
		headers.put("Accept", "application/json, text/event-stream");
		return headers;
	}

	HttpResponse<String> post(String body) throws IOException, InterruptedException {
		return post(jsonHeaders(), body);
	}

	HttpResponse<String> post(Map<String, String> headers, String body) throws IOException, InterruptedException {
		return send("POST", headers, HttpRequest.BodyPublishers.ofString(body));
	}

	HttpResponse<String> send(String method, Map<String, String> headers, HttpRequest.BodyPublisher body)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.method(method, body);
		headers.forEach(request::header);
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Starts a session.
	 * @return its id
	 */
	String initialize() throws IOException, InterruptedException {
		HttpResponse<String> response = post(INITIALIZE);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		Map<String, String> headers = jsonHeaders();
		headers.put("Mcp-Session-Id", session);
		assertThat(post(headers, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
			.isEqualTo(202);
		return session;
	}

	Map<String, String> sessionHeaders(String session) {
		Map<String, String> headers = jsonHeaders();
		headers.put("Mcp-Session-Id", session);
		return headers;
	}

	/**
	 * Sends a request over a plain socket, for headers the JDK client will not set (such
	 * as {@code Host}).
	 * @return the status line and headers and body as received
	 */
	String rawExchange(String requestHead, String body) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream out = socket.getOutputStream();
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			out.write((requestHead + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/**
	 * The JSON-RPC error of a refusal, checked to be short and free of anything from
	 * inside the server.
	 * @return the {@code error} object
	 */
	static JsonNode error(HttpResponse<String> response) {
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		return errorOf(response.body());
	}

	static JsonNode errorOf(String body) {
		assertNothingInternal(body);
		JsonNode json = JsonMapper.shared().readTree(body);
		assertThat(json.get("jsonrpc").asString()).isEqualTo("2.0");
		return json.get("error");
	}

	static void assertNothingInternal(String body) {
		assertThat(body).hasSizeLessThan(400)
			.doesNotContain("Exception")
			.doesNotContain("\tat ")
			.doesNotContain("java.")
			.doesNotContain("io.modelcontextprotocol")
			.doesNotContain("springframework");
	}

}
