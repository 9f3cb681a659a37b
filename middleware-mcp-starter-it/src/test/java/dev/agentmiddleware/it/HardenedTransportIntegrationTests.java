package dev.agentmiddleware.it;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hardened Streamable HTTP transport over real HTTP, one test per kind of bad
 * request: each gets a short JSON-RPC error with the right code and HTTP status, and
 * never a Java exception, a stack trace, a class name or an echoed header value.
 */
@SpringBootTest(classes = FreshMcpApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.mcp.transport.max-request-size=64KB")
@ExtendWith(OutputCaptureExtension.class)
class HardenedTransportIntegrationTests {

	@LocalServerPort
	int port;

	private RawMcpHttp mcp() {
		return new RawMcpHttp(this.port);
	}

	@Test
	void malformedJsonIsAParseError(CapturedOutput output) throws Exception {
		HttpResponse<String> response = mcp()
			.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"token\":\"s3cr3t-t0ken\"");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32700);
		assertThat(output).doesNotContain("s3cr3t-t0ken").doesNotContain("ERROR").doesNotContain("\tat ");
		assertThat(loggedAtInfoOrAbove(output).filter((line) -> line.contains("HardenedStreamableHttpTransport")))
			.singleElement()
			.asString()
			.contains("WARN")
			.contains("MCP message refused: not valid JSON");
	}

	@Test
	void clientThatDisconnectsLeavesNoErrorInTheLog(CapturedOutput output) throws Exception {
		String session = mcp().initialize();
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1", this.port)) {
			socket.getOutputStream()
				.write(("GET /mcp HTTP/1.1\r\nHost: localhost:" + this.port + "\r\nAccept: text/event-stream\r\n"
						+ "Mcp-Session-Id: " + session + "\r\n\r\n")
					.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			byte[] head = new byte[12];
			assertThat(socket.getInputStream().readNBytes(head, 0, head.length)).isEqualTo(12);
			assertThat(new String(head, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
		}
		// The server completes the stream of the client that went away
		assertThat(mcp().send("DELETE", Map.of("Mcp-Session-Id", session), HttpRequest.BodyPublishers.noBody())
			.statusCode()).isEqualTo(200);
		assertThat(mcp().post(RawMcpHttp.INITIALIZE).statusCode()).isEqualTo(200);
		assertThat(output).doesNotContain("ERROR").doesNotContain("\tat ");
		assertThat(loggedAtInfoOrAbove(output)).noneMatch((line) -> line.contains("Exception"));
	}

	// What an operator sees at the default level: a DEBUG line (another cached
	// application's, whose test asked for it, may log into this capture) is no error
	private static java.util.stream.Stream<String> loggedAtInfoOrAbove(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> !line.contains(" DEBUG "));
	}

	@Test
	void messageThatIsNotJsonRpcIsAnInvalidRequest() throws Exception {
		for (String body : new String[] { "[1,2]", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
				"\"hello\"" }) {
			HttpResponse<String> response = mcp().post(body);
			assertThat(response.statusCode()).as(body).isEqualTo(400);
			assertThat(RawMcpHttp.error(response).get("code").asInt()).as(body).isEqualTo(-32600);
		}
	}

	@Test
	void requestWithoutSessionIdIsRefused() throws Exception {
		HttpResponse<String> response = mcp().post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = RawMcpHttp.error(response);
		assertThat(error.get("code").asInt()).isEqualTo(-32000);
		assertThat(error.get("message").asString()).contains("Mcp-Session-Id");
	}

	@Test
	void requestWithUnknownSessionIdIsNotFoundWithoutEchoingIt() throws Exception {
		String forged = "forged-session-<script>alert(1)</script>";
		HttpResponse<String> response = mcp().post(mcp().sessionHeaders(forged),
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32001);
		assertThat(response.body()).doesNotContain("forged").doesNotContain("script");
		HttpResponse<String> stream = mcp().send("GET", Map.of("Accept", "text/event-stream", "Mcp-Session-Id", forged),
				HttpRequest.BodyPublishers.noBody());
		assertThat(stream.statusCode()).isEqualTo(404);
		HttpResponse<String> delete = mcp().send("DELETE", Map.of("Mcp-Session-Id", forged),
				HttpRequest.BodyPublishers.noBody());
		assertThat(delete.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(delete).get("code").asInt()).isEqualTo(-32001);
	}

	@Test
	void wrongAcceptIsNotAcceptable() throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("Accept", "text/html");
		HttpResponse<String> response = mcp().post(headers, RawMcpHttp.INITIALIZE);
		assertThat(response.statusCode()).isEqualTo(406);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32000);
		HttpResponse<String> stream = mcp().send("GET", Map.of("Accept", "application/json"),
				HttpRequest.BodyPublishers.noBody());
		assertThat(stream.statusCode()).isEqualTo(406);
	}

	@Test
	void wrongContentTypeIsUnsupported() throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("Content-Type", "text/plain");
		HttpResponse<String> response = mcp().post(headers, RawMcpHttp.INITIALIZE);
		assertThat(response.statusCode()).isEqualTo(415);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32000);
	}

	@Test
	void toolsCallWithBadParamsIsInvalidParams(CapturedOutput output) throws Exception {
		String session = mcp().initialize();
		for (String params : new String[] { "", ",\"params\":null", ",\"params\":{}", ",\"params\":{\"name\":7}",
				",\"params\":{\"name\":\"convert\",\"arguments\":[1]}" }) {
			String body = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"" + params + "}";
			HttpResponse<String> response = mcp().post(mcp().sessionHeaders(session), body);
			assertThat(response.statusCode()).as(body).isEqualTo(200);
			JsonNode json = tools.jackson.databind.json.JsonMapper.shared().readTree(response.body());
			assertThat(json.get("id").asInt()).isEqualTo(9);
			assertThat(RawMcpHttp.errorOf(response.body()).get("code").asInt()).as(body).isEqualTo(-32602);
		}
		assertThat(output).doesNotContain("ERROR").doesNotContain("\tat ");
	}

	@Test
	void repeatedArgumentKeyIsRefusedAsOnEveryOtherPathNotResolvedToTheLastValue(CapturedOutput output)
			throws Exception {
		String session = mcp().initialize();
		String body = "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"forecast\","
				+ "\"arguments\":{\"city\":\"Lisbon\",\"city\":\"Porto\",\"days\":2}}}";
		HttpResponse<String> response = mcp().post(mcp().sessionHeaders(session), body);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode json = tools.jackson.databind.json.JsonMapper.shared().readTree(response.body());
		assertThat(json.get("id").asInt()).isEqualTo(11);
		JsonNode error = RawMcpHttp.errorOf(response.body());
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.get("message").asString()).contains("repeats a key").doesNotContain("Porto");
		assertThat(output).doesNotContain("ERROR").doesNotContain("\tat ");
	}

	@Test
	void bodyOverTheLimitIsRefusedBeforeItIsRead() throws Exception {
		String session = mcp().initialize();
		String huge = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"convert\","
				+ "\"arguments\":{\"amount\":1,\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}}}";
		HttpResponse<String> response = mcp().post(mcp().sessionHeaders(session), huge);
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32000);
		// Without a Content-Length the limit holds while reading
		HttpResponse<String> chunked = mcp().send("POST", mcp().sessionHeaders(session),
				HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge.getBytes())));
		assertThat(chunked.statusCode()).isEqualTo(413);
	}

	@Test
	void foreignOriginIsForbiddenAndLocalOrMissingOriginAllowed() throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("Origin", "https://evil.example");
		HttpResponse<String> evil = mcp().post(headers, RawMcpHttp.INITIALIZE);
		assertThat(evil.statusCode()).isEqualTo(403);
		assertThat(RawMcpHttp.error(evil).get("code").asInt()).isEqualTo(-32000);
		assertThat(evil.body()).doesNotContain("evil");
		headers.put("Origin", "http://localhost:6274");
		assertThat(mcp().post(headers, RawMcpHttp.INITIALIZE).statusCode()).isEqualTo(200);
		assertThat(mcp().post(RawMcpHttp.INITIALIZE).statusCode()).isEqualTo(200);
	}

	@Test
	void foreignHostIsForbidden() throws Exception {
		String response = mcp().rawExchange(
				"POST /mcp HTTP/1.1\r\nHost: rebound.evil.example:" + this.port
						+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
				RawMcpHttp.INITIALIZE);
		assertThat(response).startsWith("HTTP/1.1 403");
		String body = response.substring(response.indexOf("\r\n\r\n") + 4);
		assertThat(RawMcpHttp.errorOf(body.substring(body.indexOf('{'), body.lastIndexOf('}') + 1)).get("code").asInt())
			.isEqualTo(-32000);
		assertThat(body).doesNotContain("rebound");
		String local = mcp().rawExchange(
				"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + this.port
						+ "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
				RawMcpHttp.INITIALIZE);
		assertThat(local).startsWith("HTTP/1.1 200");
	}

	@Test
	void unsupportedProtocolVersionIsABadRequest() throws Exception {
		String session = mcp().initialize();
		Map<String, String> headers = mcp().sessionHeaders(session);
		headers.put("MCP-Protocol-Version", "1999-01-01");
		HttpResponse<String> response = mcp().post(headers, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32000);
		assertThat(response.body()).doesNotContain("1999");
		headers.put("MCP-Protocol-Version", "2025-06-18");
		assertThat(mcp().post(headers, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}").statusCode())
			.isEqualTo(200);
	}

	@Test
	void unknownMethodIsAnsweredAndTheResponseCompletes() throws Exception {
		String session = mcp().initialize();
		// The JDK client returns only once the response body is complete
		HttpResponse<String> response = mcp().post(mcp().sessionHeaders(session),
				"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such/method\"}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("-32601").contains("\"id\":6");
	}

	@Test
	void endedSessionIsNotFound() throws Exception {
		String session = mcp().initialize();
		assertThat(mcp().send("DELETE", Map.of("Mcp-Session-Id", session), HttpRequest.BodyPublishers.noBody())
			.statusCode()).isEqualTo(200);
		HttpResponse<String> response = mcp().post(mcp().sessionHeaders(session),
				"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(response).get("code").asInt()).isEqualTo(-32001);
	}

}
