package dev.agentmiddleware.it;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Input schemas over MCP and on the Spring AI path, end to end with the MCP Java SDK
 * client: a schema an {@code @AgentTool} declares ({@code inputSchema = "classpath:..."})
 * is published as written, JSON Schema 2020-12 keywords included, and calls are still
 * bound to the method's parameters; a generated schema shares an object type used twice
 * under {@code $defs}.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpInputSchemaIntegrationTests.ContactConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class McpInputSchemaIntegrationTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@Autowired
	AgentToolCallbackProvider springAiTools;

	@Test
	void declaredSchemaIsListedAsWritten() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			JsonNode schema = MAPPER.valueToTree(tool(client, "save_contact").inputSchema());
			JsonNode declared = MAPPER.readTree(getClass().getResourceAsStream("/schemas/contact.json"));
			assertThat(schema).isEqualTo(declared);
			assertThat(schema.get("$defs").get("address").get("$anchor").asString()).isEqualTo("addressDef");
			assertThat(schema.get("properties").get("address").get("$ref").asString()).isEqualTo("#/$defs/address");
			assertThat(schema.has("allOf")).isTrue();
			assertThat(schema.has("if") && schema.has("then") && schema.has("else")).isTrue();
		}
	}

	@Test
	void declaredSchemaIsTheSpringAiToolDefinitionsToo() throws Exception {
		ToolCallback callback = java.util.Arrays.stream(this.springAiTools.getToolCallbacks())
			.filter((tool) -> tool.getToolDefinition().name().equals("save_contact"))
			.findFirst()
			.orElseThrow();
		JsonNode declared = MAPPER.readTree(getClass().getResourceAsStream("/schemas/contact.json"));
		assertThat(MAPPER.readTree(callback.getToolDefinition().inputSchema())).isEqualTo(declared);
		assertThat(callback.call("{\"name\":\"Ada\",\"email\":\"ada@example.com\","
				+ "\"address\":{\"street\":\"Main St\",\"city\":\"Lisbon\"}}"))
			.contains("Ada at Main St, Lisbon by email");
	}

	@Test
	void callsOfADeclaredSchemaBindReferencedObjectsToTheParameters() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(CallToolRequest.builder()
				.name("save_contact")
				.arguments(Map.of("name", "Ada", "contactMethod", "phone", "phone", "555", "address",
						Map.of("street", "Main St", "city", "Lisbon")))
				.build());
			assertThat(result.isError()).isFalse();
			assertThat(((TextContent) result.content().get(0)).text()).contains("Ada at Main St, Lisbon by phone");
		}
	}

	@Test
	void callsOfADeclaredSchemaAreRefusedForWhatItRequiresOrDoesNotKnow() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult missing = client.callTool(CallToolRequest.builder()
				.name("save_contact")
				.arguments(Map.of("email", "ada@example.com"))
				.build());
			assertThat(missing.isError()).isTrue();
			assertThat(((TextContent) missing.content().get(0)).text()).contains("name");
			CallToolResult unknown = client.callTool(CallToolRequest.builder()
				.name("save_contact")
				.arguments(Map.of("name", "Ada", "address", Map.of("street", "Main St", "zip", "1000")))
				.build());
			assertThat(unknown.isError()).isTrue();
			assertThat(((TextContent) unknown.content().get(0)).text()).contains("address");
		}
	}

	@Test
	void generatedSchemaSharesAnObjectTypeUsedTwiceUnderDefs() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			JsonNode schema = MAPPER.valueToTree(tool(client, "plan_route").inputSchema());
			assertThat(schema.get("properties").get("from").get("$ref").asString()).isEqualTo("#/$defs/Place");
			assertThat(schema.get("properties").get("to").get("$ref").asString()).isEqualTo("#/$defs/Place");
			assertThat(schema.get("$defs").get("Place").get("properties").propertyNames()).containsExactly("city",
					"country");
			assertThat(schema.get("properties").get("via").has("$ref")).as("a type used once is inlined").isFalse();
			CallToolResult result = client.callTool(CallToolRequest.builder()
				.name("plan_route")
				.arguments(Map.of("from", Map.of("city", "Lisbon", "country", "PT"), "to",
						Map.of("city", "Porto", "country", "PT"), "via", Map.of("name", "A1")))
				.build());
			assertThat(((TextContent) result.content().get(0)).text()).contains("Lisbon to Porto via A1");
		}
	}

	private static Tool tool(McpSyncClient client, String name) {
		return client.listTools().tools().stream().filter((tool) -> tool.name().equals(name)).findFirst().orElseThrow();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ContactConfiguration {

		@Bean
		ContactTools contactTools() {
			return new ContactTools();
		}

	}

	public static class ContactTools {

		@AgentTool(description = "Saves a contact", safety = SafetyLevel.SAFE,
				inputSchema = "classpath:schemas/contact.json")
		public String saveContact(String name, @AgentToolParam(required = false) Address address,
				@AgentToolParam(required = false) String contactMethod, @AgentToolParam(required = false) String phone,
				@AgentToolParam(required = false) String email) {
			String method = (contactMethod != null) ? contactMethod : "email";
			return name + " at " + ((address != null) ? address.street() + ", " + address.city() : "-") + " by "
					+ method;
		}

		@AgentTool(description = "Plans a route", safety = SafetyLevel.SAFE, readOnly = true)
		public String planRoute(Place from, Place to, Road via) {
			return from.city() + " to " + to.city() + " via " + via.name();
		}

	}

	public record Address(String street, String city) {
	}

	public record Place(String city, String country) {
	}

	public record Road(String name) {
	}

}
