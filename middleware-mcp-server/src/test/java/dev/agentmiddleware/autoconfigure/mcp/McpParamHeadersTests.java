package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.function.ServerRequest;

import static org.assertj.core.api.Assertions.assertThat;

class McpParamHeadersTests {

	private static final McpSchema.Tool TOOL = McpSchema.Tool.builder()
		.name("route_order")
		.inputSchema(Map.of("type", "object", "properties",
				Map.of("region", Map.of("type", "string", "x-mcp-header", "Region"), "priority",
						Map.of("type", "integer", "x-mcp-header", "Priority"), "urgent",
						Map.of("type", "boolean", "x-mcp-header", "Urgent"), "note", Map.of("type", "string"))))
		.build();

	@Test
	void headersThatSayWhatTheBodySaysPass() {
		assertThat(mismatch(Map.of("region", "eu", "priority", 42, "urgent", true, "note", "x"),
				Map.of("mcp-param-region", " eu ", "Mcp-Param-Priority", "42.00", "MCP-PARAM-URGENT", "true")))
			.isNull();
		assertThat(
				mismatch(Map.of("region", "Hello, 世界"), Map.of("Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?=")))
			.isNull();
		assertThat(mismatch(Map.of(), Map.of())).isNull();
	}

	@Test
	void aBooleanOrANumberMustMatchAsItsType() {
		assertThat(mismatch(Map.of("urgent", true), Map.of("Mcp-Param-Urgent", "TRUE"))).contains("parameter 'urgent'");
		assertThat(mismatch(Map.of("priority", 42), Map.of("Mcp-Param-Priority", "forty-two")))
			.contains("parameter 'priority'");
	}

	@Test
	void base64MustBeStrictAndUtf8() {
		assertThat(mismatch(Map.of("region", "Hello"), Map.of("Mcp-Param-Region", "=?base64?SGVsbG8?=")))
			.contains("not valid Base64");
		assertThat(mismatch(Map.of("region", "Hello"), Map.of("Mcp-Param-Region", "=?base64?SGVs bG8=?=")))
			.contains("not valid Base64");
		// 0xFF is no UTF-8
		assertThat(mismatch(Map.of("region", "x"), Map.of("Mcp-Param-Region", "=?base64?/w==?=")))
			.contains("not valid Base64");
	}

	@Test
	void messageNamesToolParameterAndHeader() {
		assertThat(mismatch(Map.of("region", "eu"), Map.of())).isEqualTo("Header mismatch: tool 'route_order' mirrors "
				+ "parameter 'region' into header Mcp-Param-Region, which is missing although the body has the parameter");
	}

	private static String mismatch(Map<String, Object> arguments, Map<String, String> headers) {
		MockHttpServletRequest servletRequest = new MockHttpServletRequest("POST", "/mcp");
		headers.forEach(servletRequest::addHeader);
		return McpParamHeaders.mismatch(TOOL, new HashMap<>(arguments),
				ServerRequest.create(servletRequest, List.of()));
	}

}
