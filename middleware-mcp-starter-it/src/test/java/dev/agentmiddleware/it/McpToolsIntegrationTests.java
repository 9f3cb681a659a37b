package dev.agentmiddleware.it;

import java.util.List;
import java.util.Map;

import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.autoconfigure.mcp.McpInvocationAttributes;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an MCP client sees of the tools, end to end over real HTTP with the MCP Java SDK
 * client: titles, annotations, output schemas and icons in {@code tools/list}; structured
 * results; arguments bound by our binder inside the chain; failures as {@code isError}
 * results; and a Spring AI {@code @Tool} governed like our own tools.
 */
// delete_note is dangerous and utcOffset, a Spring AI @Tool, declares no safety: both
// would wait for a human approver
// by default. This class is about the MCP edge, so it exempts them; approval has its own
// end-to-end tests.
@SpringBootTest(classes = { FreshMcpApplication.class, McpToolsIntegrationTests.Observing.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "agent.middleware.approval.exempt-tools=delete_note,utcOffset",
				"agent.middleware.mcp.tools.utc-offset.icons[0].src=data:image/png;base64,iVBORw0KGgo=",
				"agent.middleware.mcp.tools.utc-offset.icons[0].theme=dark" })
@ExtendWith(OutputCaptureExtension.class)
class McpToolsIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	RecordingToolCallObserver observer;

	@Test
	@SuppressWarnings("unchecked")
	void toolsListCarriesTitlesAnnotationsAndOutputSchemas() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			Map<String, Tool> tools = byName(client.listTools().tools());
			Tool forecast = tools.get("forecast");
			assertThat(forecast.title()).isEqualTo("Weather forecast");
			assertThat(forecast.annotations().title()).isEqualTo("Weather forecast");
			assertThat(forecast.annotations().readOnlyHint()).isTrue();
			assertThat(forecast.annotations().destructiveHint()).isFalse();
			assertThat(forecast.annotations().idempotentHint()).isTrue();
			assertThat(forecast.annotations().openWorldHint()).isTrue();
			assertThat(forecast.outputSchema()).containsEntry("type", "object");
			assertThat(((Map<String, Object>) forecast.outputSchema().get("properties")).keySet())
				.containsExactlyInAnyOrder("city", "days", "celsius", "summary");
			Tool deleteNote = tools.get("delete_note");
			assertThat(deleteNote.title()).isEqualTo("Delete note");
			assertThat(deleteNote.annotations().readOnlyHint()).isFalse();
			assertThat(deleteNote.annotations().destructiveHint()).isTrue();
			assertThat(deleteNote.annotations().idempotentHint()).isFalse();
			assertThat(deleteNote.annotations().openWorldHint()).isFalse();
			assertThat(deleteNote.outputSchema()).as("a text result has no output schema").isNull();
			assertThat(tools.get("convert").annotations().openWorldHint()).isFalse();
		}
	}

	@Test
	void toolsListCarriesTheIconsOfAgentToolAndOfConfiguration() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			Map<String, Tool> tools = byName(client.listTools().tools());
			assertThat(tools.get("forecast").icons()).containsExactly(
					new McpSchema.Icon("https://icons.example/forecast.svg", "image/svg+xml", List.of("any"), null));
			assertThat(tools.get("utcOffset").icons()).as("a governed Spring AI tool gets configured icons")
				.containsExactly(new McpSchema.Icon("data:image/png;base64,iVBORw0KGgo=", "image/png", null, "dark"));
			assertThat(tools.get("convert").icons()).isNull();
		}
	}

	@Test
	void structuredResultIsStructuredContentAndText() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client
				.callTool(new CallToolRequest("forecast", Map.of("city", "Lisbon", "days", 2)));
			assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
			assertThat(result.structuredContent())
				.isEqualTo(Map.of("city", "Lisbon", "days", 2, "celsius", 21.5, "summary", "sunny"));
			assertThat(text(result))
				.isEqualTo("{\"city\":\"Lisbon\",\"days\":2,\"celsius\":21.5,\"summary\":\"sunny\"}");
		}
	}

	@Test
	void nullPropertyOfAStructuredResultMatchesTheOutputSchema() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(new CallToolRequest("forecast", Map.of("city", "Oslo", "days", 5)));
			assertThat(result.isError()).as(text(result)).isNotEqualTo(Boolean.TRUE);
			assertThat(((Map<?, ?>) result.structuredContent()).get("summary")).isNull();
		}
	}

	@Test
	void numberSentAsTextIsAcceptedAsOnTheChatClientPath() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(new CallToolRequest("convert", Map.of("amount", "3.5")));
			assertThat(result.isError()).as(text(result)).isNotEqualTo(Boolean.TRUE);
			assertThat(text(result)).isEqualTo("3.85 USD");
		}
	}

	@Test
	void refusedArgumentIsAnErrorResultThatIsLoggedAndObserved(CapturedOutput output) {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client
				.callTool(new CallToolRequest("forecast", Map.of("city", "Lisbon", "days", "three")));
			assertThat(result.isError()).isTrue();
			assertThat(text(result)).contains("forecast").contains("'days'").contains("integer");
		}
		ToolCallRecord refused = this.observer.records("forecast")
			.stream()
			.filter((record) -> record.outcome() == CallOutcome.INVALID_ARGUMENTS)
			.findFirst()
			.orElseThrow();
		assertThat(refused.invocation().source()).isEqualTo(InvocationSource.MCP);
		assertThat(refused.invocation().sessionId()).isNotBlank();
		assertThat(refused.invocation().attribute(McpInvocationAttributes.EXCHANGE)).isNotNull();
		assertThat(output).containsPattern("tool=forecast session=\\S+ source=mcp outcome=invalid_arguments");
	}

	@Test
	void unknownArgumentIsRefusedByOurBinderWithItsMessage() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(new CallToolRequest("convert", Map.of("amount", 1, "rate", 2)));
			assertThat(result.isError()).isTrue();
			assertThat(text(result)).contains("'rate'").contains("is not a parameter of this tool");
		}
	}

	@Test
	void toolFailureIsAnErrorResult() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(new CallToolRequest("delete_note", Map.of("name", "nothing")));
			assertThat(result.isError()).isTrue();
			assertThat(text(result)).contains("No note named 'nothing'").doesNotContain("\tat ");
		}
		assertThat(this.observer.records("delete_note")).extracting(ToolCallRecord::outcome)
			.contains(CallOutcome.FAILED);
	}

	@Test
	void springAiToolRunsThroughTheChain() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client.callTool(new CallToolRequest("utcOffset", Map.of("zone", "UTC")));
			assertThat(result.isError()).as(text(result)).isNotEqualTo(Boolean.TRUE);
			assertThat(text(result)).contains("Z");
		}
		assertThat(this.observer.records("utcOffset")).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
			assertThat(record.invocation().source()).isEqualTo(InvocationSource.MCP);
			assertThat(record.invocation().sessionId()).isNotBlank();
		});
	}

	private static Map<String, Tool> byName(List<Tool> tools) {
		return tools.stream().collect(java.util.stream.Collectors.toMap(Tool::name, (tool) -> tool));
	}

	private static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Observing {

		@Bean
		RecordingToolCallObserver recordingObserver() {
			return new RecordingToolCallObserver();
		}

	}

}
