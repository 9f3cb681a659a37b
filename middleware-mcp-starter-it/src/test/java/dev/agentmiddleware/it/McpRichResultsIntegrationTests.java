package dev.agentmiddleware.it;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContent.Annotations;
import dev.agentmiddleware.tool.ToolContent.Audience;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ResourceLink;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rich results over MCP, end to end over real HTTP with the MCP Java SDK client: an
 * {@code @AgentTool} that returns {@link ToolContents} answers with a content block per
 * part, of its kind and with its annotations, guarded like any result, and logged without
 * its binary data.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpRichResultsIntegrationTests.ChartConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "logging.level.dev.agentmiddleware.logging.ToolCallLog=debug")
@ExtendWith(OutputCaptureExtension.class)
class McpRichResultsIntegrationTests {

	static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R' };

	static final byte[] WAV = { 'R', 'I', 'F', 'F', 36, 0, 0, 0, 'W', 'A', 'V', 'E' };

	static final Instant CHANGED = Instant.parse("2026-03-31T12:00:00Z");

	@LocalServerPort
	int port;

	@Test
	void imageTextAndResourceLinkArriveAsTheirContentBlocksWithAnnotations(CapturedOutput output) {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			Tool chart = client.listTools()
				.tools()
				.stream()
				.filter((tool) -> tool.name().equals("sales_chart"))
				.findFirst()
				.orElseThrow();
			assertThat(chart.outputSchema()).as("a rich result has no output schema").isNull();
			CallToolResult result = client
				.callTool(CallToolRequest.builder().name("sales_chart").arguments(Map.of()).build());
			assertThat(result.isError()).isFalse();
			assertThat(result.structuredContent()).isNull();
			assertThat(result.content()).hasSize(3);
			TextContent text = (TextContent) result.content().get(0);
			assertThat(text.text()).isEqualTo("Sales in March, api_key=[REDACTED]");
			assertThat(text.annotations().audience()).containsExactly(Role.ASSISTANT);
			ImageContent image = (ImageContent) result.content().get(1);
			assertThat(image.mimeType()).isEqualTo("image/png");
			assertThat(Base64.getDecoder().decode(image.data())).isEqualTo(PNG);
			assertThat(image.annotations().audience()).containsExactly(Role.USER);
			assertThat(image.annotations().priority()).isEqualTo(0.9);
			assertThat(image.annotations().lastModified()).isEqualTo("2026-03-31T12:00:00Z");
			ResourceLink link = (ResourceLink) result.content().get(2);
			assertThat(link.uri()).isEqualTo("file:///reports/march.csv");
			assertThat(link.name()).isEqualTo("march.csv");
			assertThat(link.title()).isEqualTo("March figures");
			assertThat(link.description()).isEqualTo("The figures behind the chart");
			assertThat(link.mimeType()).isEqualTo("text/csv");
			assertThat(link.size()).isEqualTo(2_048L);
			assertThat(link.annotations().priority()).isEqualTo(0.3);
		}
		assertThat(output).contains("tool=sales_chart")
			.contains("Image \"[image/png, 16 bytes]\"")
			.doesNotContain(Base64.getEncoder().encodeToString(PNG));
	}

	@Test
	void audioAndEmbeddedResourcesArriveAsTheirContentBlocks() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			CallToolResult result = client
				.callTool(CallToolRequest.builder().name("read_recording").arguments(Map.of()).build());
			assertThat(result.isError()).isFalse();
			List<?> content = result.content();
			assertThat(content).hasSize(3);
			AudioContent audio = (AudioContent) content.get(0);
			assertThat(audio.mimeType()).isEqualTo("audio/wav");
			assertThat(Base64.getDecoder().decode(audio.data())).isEqualTo(WAV);
			TextResourceContents transcript = (TextResourceContents) ((EmbeddedResource) content.get(1)).resource();
			assertThat(transcript.uri()).isEqualTo("file:///recordings/1.txt");
			assertThat(transcript.mimeType()).isEqualTo("text/plain");
			assertThat(transcript.text()).isEqualTo("hello");
			EmbeddedResource blob = (EmbeddedResource) content.get(2);
			assertThat(blob.annotations().audience()).containsExactly(Role.USER);
			BlobResourceContents contents = (BlobResourceContents) blob.resource();
			assertThat(contents.uri()).isEqualTo("file:///recordings/1.wav");
			assertThat(contents.mimeType()).isEqualTo("audio/wav");
			assertThat(Base64.getDecoder().decode(contents.blob())).isEqualTo(WAV);
		}
	}

	/**
	 * Tools that answer with rich results.
	 */
	public static class ChartTools {

		@AgentTool(description = "Charts the sales of March", safety = SafetyLevel.SAFE, readOnly = true)
		public ToolContents salesChart() {
			return ToolContents.of(
					ToolContent.text("Sales in March, api_key=sk-live-123")
						.annotated(Annotations.forAudience(Audience.ASSISTANT)),
					ToolContent.image(PNG, "image/png")
						.annotated(Annotations.forAudience(Audience.USER).withPriority(0.9).withLastModified(CHANGED)),
					ToolContent.resourceLink("file:///reports/march.csv", "march.csv")
						.withTitle("March figures")
						.withDescription("The figures behind the chart")
						.withMimeType("text/csv")
						.withSize(2_048L)
						.annotated(Annotations.forAudience().withPriority(0.3)));
		}

		@AgentTool(description = "Reads a recording", safety = SafetyLevel.SAFE, readOnly = true)
		public ToolContents readRecording() {
			return ToolContents.of(ToolContent.audio(WAV, "audio/wav"),
					ToolContent.resource("file:///recordings/1.txt", "hello", "text/plain"),
					ToolContent.resource("file:///recordings/1.wav", WAV, "audio/wav")
						.annotated(Annotations.forAudience(Audience.USER)));
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ChartConfiguration {

		@Bean
		ChartTools chartTools() {
			return new ChartTools();
		}

	}

}
