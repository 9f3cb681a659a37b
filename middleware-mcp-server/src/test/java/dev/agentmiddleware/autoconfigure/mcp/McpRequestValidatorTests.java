package dev.agentmiddleware.autoconfigure.mcp;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.function.ServerRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code Accept} and {@code Content-Type} a {@code POST} must have: the one
 * {@code Accept} header must list both {@code application/json} and
 * {@code text/event-stream} (an unreadable one refuses the request with 406), and the
 * {@code Content-Type} must be JSON with a charset Java knows (else 415).
 */
class McpRequestValidatorTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private final McpRequestValidator validator = new McpRequestValidator(
			new McpRequestGuard(McpRequestGuard.LOCAL_ORIGINS, McpRequestGuard.LOCAL_HOSTS, List.of("2025-11-25")),
			4096, JSON, new JsonRpcErrors(JSON));

	@Test
	void anAcceptHeaderListingJsonAndTheEventStreamPasses() {
		for (String accept : List.of("application/json, text/event-stream", "text/event-stream, application/json",
				"application/json,text/event-stream", "APPLICATION/JSON, TEXT/EVENT-STREAM",
				"application/json;q=0.9, text/event-stream", "application/json, text/event-stream;", "*/*",
				"application/*, text/*")) {
			assertThat(status(post(List.of(accept), "application/json"))).as(accept).isZero();
		}
		assertThat(status(post(List.of("application/json", "text/event-stream"), "application/json"))).isZero();
		assertThat(status(post(List.of("application/json, text/event-stream", "text/html"), "application/json")))
			.isZero();
	}

	@Test
	void anAcceptHeaderWithoutBothTypesOrUnreadableIsNotAcceptable() {
		for (String accept : List.of("application/json", "text/event-stream", "text/html",
				"application/json text/event-stream")) {
			assertThat(status(post(List.of(accept), "application/json"))).as(accept).isEqualTo(406);
		}
		assertThat(status(post(List.of(), "application/json"))).isEqualTo(406);
		assertThat(status(post(List.of("application/json, text/event-stream", "bad type"), "application/json")))
			.isEqualTo(406);
	}

	@Test
	void aJsonContentTypePasses() {
		for (String contentType : List.of("application/json", "application/json;charset=UTF-8",
				"application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=ISO-8859-1")) {
			assertThat(status(post(List.of("application/json, text/event-stream"), contentType))).as(contentType)
				.isZero();
		}
		// As a character encoding filter leaves it: Spring adds the charset
		MockHttpServletRequest encoded = post(List.of("application/json, text/event-stream"), "application/json");
		encoded.setCharacterEncoding("UTF-8");
		assertThat(status(encoded)).isZero();
	}

	@Test
	void anotherOrAnUnreadableContentTypeIsUnsupported() {
		for (String contentType : List.of("text/plain", "application/json-patch+json", "application/jsonx",
				"application/json;charset=no-such-charset", "json")) {
			assertThat(status(post(List.of("application/json, text/event-stream"), contentType))).as(contentType)
				.isEqualTo(415);
		}
		assertThat(status(post(List.of("application/json, text/event-stream"), null))).isEqualTo(415);
	}

	// 0 when the message passed
	private int status(MockHttpServletRequest request) {
		McpChecked<McpRequestValidator.CheckedMessage> checked = this.validator
			.check(ServerRequest.create(request, List.of()));
		return checked.isRefused() ? checked.refusal().statusCode().value() : 0;
	}

	private static MockHttpServletRequest post(List<String> accept, String contentType) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp");
		request.addHeader("Host", "localhost:8080");
		request.addHeader("MCP-Protocol-Version", "2025-11-25");
		accept.forEach((value) -> request.addHeader("Accept", value));
		if (contentType != null) {
			request.addHeader("Content-Type", contentType);
		}
		request.setContent("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8));
		return request;
	}

}
