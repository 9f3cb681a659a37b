package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MCP over plain HTTP requests, for tests that need to see or control the wire:
 * initialize a session, build a {@code tools/call} POST.
 */
public final class RawMcp {

	private RawMcp() {
	}

	/**
	 * Initializes a session and sends {@code notifications/initialized}.
	 * @return the session id the server assigned
	 */
	public static String initialize(HttpClient http, int port) throws Exception {
		HttpResponse<String> initialized = http.send(post(port, null, "{\"jsonrpc\":\"2.0\",\"id\":1,"
				+ "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
				+ "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
		assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
		String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		HttpResponse<String> notified = http.send(
				post(port, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
				HttpResponse.BodyHandlers.ofString());
		assertThat(notified.statusCode()).isEqualTo(202);
		return session;
	}

	public static String toolsCall(int id, String tool, String argumentsJson) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
				+ "\",\"arguments\":" + argumentsJson + "}}";
	}

	public static HttpRequest post(int port, @Nullable String session, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/mcp"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return request.build();
	}

}
