package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code tools/call} of MCP {@code 2026-07-28} over real HTTP: its {@code Mcp-Param-*}
 * headers must agree with the body (SEP-2243), a tool that needs a client capability the
 * request did not declare answers {@code -32021} with status 400 before any stream, and
 * no log message is sent without a {@code _meta} log level.
 */
@SpringBootTest(
		classes = { FreshMcpApplication.class, StatelessMcpCallHeadersAndCapabilitiesIntegrationTests.Tools.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class StatelessMcpCallHeadersAndCapabilitiesIntegrationTests {

	private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
			+ "\"io.modelcontextprotocol/clientCapabilities\":{}}";

	@LocalServerPort
	int port;

	@Test
	void parameterDeclaredWithHeaderIsListedWithXMcpHeader() throws Exception {
		JsonNode tools = json(post("tools/list", null, Map.of(), "{" + META + "}").body()).get("result").get("tools");
		JsonNode route = tools.valueStream()
			.filter((tool) -> tool.get("name").asString().equals("route_order"))
			.findFirst()
			.orElseThrow();
		JsonNode properties = route.get("inputSchema").get("properties");
		assertThat(properties.get("region").get("x-mcp-header").asString()).isEqualTo("Region");
		assertThat(properties.get("priority").get("x-mcp-header").asString()).isEqualTo("Priority");
	}

	@Test
	void literalHeaderThatEqualsTheBodyIsAcceptedWhateverTheCaseOfItsNameAndItsWhitespace() throws Exception {
		HttpResponse<String> response = call("{\"region\":\"us-west1\",\"priority\":42}",
				Map.of("mcp-param-region", "  us-west1 ", "MCP-PARAM-PRIORITY", "42"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(result(response).get("content").get(0).get("text").asString()).isEqualTo("us-west1 at 42");
	}

	@Test
	void base64HeaderIsDecodedAndComparedWithTheBody() throws Exception {
		String value = "Hello, 世界";
		String encoded = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
		HttpResponse<String> response = call("{\"region\":\"" + value + "\"}",
				Map.of("Mcp-Param-Region", "=?base64?" + encoded + "?="));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(result(response).get("content").get(0).get("text").asString()).isEqualTo(value + " at none");
	}

	@Test
	void valueWithoutTheWholeBase64WrapperIsTakenLiterally() throws Exception {
		assertThat(call("{\"region\":\"=?base64?SGVsbG8=\"}", Map.of("Mcp-Param-Region", "=?base64?SGVsbG8="))
			.statusCode()).isEqualTo(200);
		assertThat(call("{\"region\":\"SGVsbG8=\"}", Map.of("Mcp-Param-Region", "SGVsbG8=")).statusCode())
			.isEqualTo(200);
	}

	@Test
	void missingHeaderOfAValueInTheBodyIsRefusedNamingToolParameterAndHeader() throws Exception {
		JsonNode error = refused(call("{\"region\":\"us-west1\"}", Map.of()));
		assertThat(error.get("message").asString()).contains("tool 'route_order'")
			.contains("parameter 'region'")
			.contains("Mcp-Param-Region")
			.contains("missing");
	}

	@Test
	void headerThatDiffersFromTheBodyIsRefused() throws Exception {
		assertThat(refused(call("{\"region\":\"us-west1\"}", Map.of("Mcp-Param-Region", "eu-west1"))).get("message")
			.asString()).contains("differs");
		// A value is compared as its type: a number as a number
		assertThat(refused(
				call("{\"region\":\"a\",\"priority\":42}", Map.of("Mcp-Param-Region", "a", "Mcp-Param-Priority", "43")))
			.get("message")
			.asString()).contains("parameter 'priority'");
		assertThat(call("{\"region\":\"a\",\"priority\":42}",
				Map.of("Mcp-Param-Region", "a", "Mcp-Param-Priority", "42.0"))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void base64HeaderWithoutItsPaddingOrWithForeignCharactersIsRefused() throws Exception {
		assertThat(
				refused(call("{\"region\":\"Hello\"}", Map.of("Mcp-Param-Region", "=?base64?SGVsbG8?="))).get("message")
					.asString())
			.contains("not valid Base64");
		refused(call("{\"region\":\"Hello\"}", Map.of("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?=")));
	}

	@Test
	void headerWithoutItsValueInTheBodyIsRefused() throws Exception {
		assertThat(refused(call("{}", Map.of("Mcp-Param-Region", "us-west1"))).get("message").asString())
			.contains("no value");
		// Neither header nor value: nothing to compare
		assertThat(call("{}", Map.of()).statusCode()).isEqualTo(200);
	}

	@Test
	void toolThatNeedsACapabilityTheRequestDidNotDeclareIsMissingRequiredClientCapabilityWith400() throws Exception {
		HttpResponse<String> response = post("tools/call", "summarise", Map.of(),
				"{\"name\":\"summarise\",\"arguments\":{\"text\":\"a long text\"}," + META + "}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = RawMcpHttp.error(response);
		assertThat(error.get("code").asInt()).isEqualTo(-32021);
		assertThat(error.get("data").get("requiredCapabilities").toString()).isEqualTo("{\"sampling\":{}}");
		assertThat(json(response.body()).get("id").asInt()).isEqualTo(1);
	}

	@Test
	void toolThatGoesOnWithoutTheCapabilityAnswersItsResult() throws Exception {
		HttpResponse<String> response = post("tools/call", "summarise_or_cut", Map.of(),
				"{\"name\":\"summarise_or_cut\",\"arguments\":{\"text\":\"a long text\"}," + META + "}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(result(response).get("content").get(0).get("text").asString()).isEqualTo("a lon");
	}

	@Test
	void missingCapabilityAfterTheStreamStartedIsAnErrorOnTheStream() throws Exception {
		String params = "{\"name\":\"summarise\",\"arguments\":{\"text\":\"a long text\"},\"_meta\":{"
				+ "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/logLevel\":"
				+ "\"info\",\"io.modelcontextprotocol/clientCapabilities\":{}}}";
		HttpResponse<String> response = post("tools/call", "summarise", Map.of(), params);
		// Its log message started the stream
		assertThat(response.statusCode()).isEqualTo(200);
		List<JsonNode> events = events(response.body());
		assertThat(events.get(0).get("method").asString()).isEqualTo("notifications/message");
		assertThat(events.get(events.size() - 1).get("error").get("code").asInt()).isEqualTo(-32021);
	}

	@Test
	void noLogMessageIsSentWithoutALogLevelInMeta() throws Exception {
		HttpResponse<String> response = post("tools/call", "summarise_or_cut", Map.of(),
				"{\"name\":\"summarise_or_cut\",\"arguments\":{\"text\":\"a long text\"}," + META + "}");
		assertThat(events(response.body())).hasSize(1).noneSatisfy((event) -> assertThat(event.has("method")).isTrue());
	}

	private HttpResponse<String> call(String arguments, Map<String, String> paramHeaders) throws Exception {
		return post("tools/call", "route_order", paramHeaders,
				"{\"name\":\"route_order\",\"arguments\":" + arguments + "," + META + "}");
	}

	private static JsonNode refused(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		JsonNode error = RawMcpHttp.error(response);
		assertThat(error.get("code").asInt()).isEqualTo(-32020);
		return error;
	}

	private static JsonNode result(HttpResponse<String> response) {
		List<JsonNode> events = events(response.body());
		return events.get(events.size() - 1).get("result");
	}

	private HttpResponse<String> post(String method, String name, Map<String, String> extra, String params)
			throws Exception {
		Map<String, String> headers = RawMcpHttp.jsonHeaders();
		headers.put("MCP-Protocol-Version", "2026-07-28");
		headers.put("Mcp-Method", method);
		if (name != null) {
			headers.put("Mcp-Name", name);
		}
		headers.putAll(extra);
		return new RawMcpHttp(this.port).post(headers,
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
	}

	private static JsonNode json(String body) {
		return JsonMapper.shared().readTree(body);
	}

	private static List<JsonNode> events(String body) {
		List<JsonNode> events = new ArrayList<>();
		body.lines()
			.filter((line) -> line.startsWith("data:"))
			.forEach((line) -> events.add(json(line.substring("data:".length()))));
		return events;
	}

	public static class OrderTools {

		@AgentTool(description = "Routes an order to a region", safety = SafetyLevel.SAFE, openWorld = false)
		public String routeOrder(
				@AgentToolParam(description = "Region", header = "Region", required = false) String region,
				@AgentToolParam(description = "Priority", header = "Priority", required = false) Integer priority) {
			return region + " at " + ((priority != null) ? priority : "none");
		}

		@AgentTool(description = "Summarises a text with the client's model", safety = SafetyLevel.SAFE,
				readOnly = true, openWorld = false)
		public String summarise(@AgentToolParam(description = "The text") String text, ToolClient client) {
			client.log(ToolClient.Level.INFO, "Summarising");
			return client.sample(SamplingRequest.of("Summarise: " + text, 50)).text();
		}

		@AgentTool(description = "Summarises a text, or cuts it without a model", safety = SafetyLevel.SAFE,
				readOnly = true, openWorld = false)
		public String summariseOrCut(@AgentToolParam(description = "The text") String text, ToolClient client) {
			client.log(ToolClient.Level.INFO, "Summarising");
			try {
				return client.sample(SamplingRequest.of("Summarise: " + text, 50)).text();
			}
			catch (ToolClientUnavailableException ex) {
				return text.substring(0, 5);
			}
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Tools {

		@Bean
		OrderTools orderTools() {
			return new OrderTools();
		}

	}

}
