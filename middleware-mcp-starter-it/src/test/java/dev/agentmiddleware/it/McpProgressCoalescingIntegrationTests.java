package dev.agentmiddleware.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress with the default {@code agent.middleware.mcp.progress-interval} (5 s), end to
 * end with the MCP Java SDK client: a tool that reports a hundred times within a few
 * milliseconds is heard at its first report and at its last, {@code 100/100}, which
 * waited for the end of the call rather than being dropped.
 */
@SpringBootTest(
		classes = { FreshMcpApplication.class, McpProgressCoalescingIntegrationTests.ImportConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class McpProgressCoalescingIntegrationTests {

	@LocalServerPort
	int port;

	private final BlockingQueue<ProgressNotification> received = new LinkedBlockingQueue<>();

	private McpSyncClient client;

	@BeforeEach
	void connect() {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.build();
		this.client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(20))
			.progressConsumer(this.received::add)
			.build();
		this.client.initialize();
	}

	@AfterEach
	void close() {
		this.client.closeGracefully();
	}

	@Test
	void reportsWithinTheIntervalEndAtTheLastOneOneHundredOfOneHundred() throws Exception {
		CallToolResult result = this.client.callTool(CallToolRequest.builder()
			.name("import_rows")
			.arguments(Map.of("rows", 100))
			.progressToken("rows")
			.build());
		assertThat(result.isError()).isFalse();
		// The SDK client hands each notification to the consumer on a worker thread of
		// its own, so they may reach the
		// queue in either order, after the result: take both, in the order of their
		// progress
		List<ProgressNotification> notifications = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			ProgressNotification notification = this.received.poll(10, TimeUnit.SECONDS);
			assertThat(notification).as("progress notification %d of 2", i + 1).isNotNull();
			notifications.add(notification);
		}
		notifications.sort(Comparator.comparingDouble(ProgressNotification::progress));
		assertThat(notifications).extracting(ProgressNotification::progress).containsExactly(1.0, 100.0);
		assertThat(notifications).extracting(ProgressNotification::total).containsOnly(100.0);
		assertThat(notifications.get(1).message()).isEqualTo("imported 100 of 100 rows");
		// Nothing between them: the other reports came within the interval and each was
		// replaced by the next
		assertThat(this.received).isEmpty();
	}

	/**
	 * A tool that reports its progress.
	 */
	public static class ImportTools {

		@AgentTool(description = "Imports rows", safety = SafetyLevel.SAFE, openWorld = false)
		public int importRows(@AgentToolParam(description = "How many rows") int rows, ToolProgress progress) {
			for (int i = 1; i <= rows; i++) {
				progress.report(i, rows, "imported " + i + " of " + rows + " rows");
			}
			return rows;
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ImportConfiguration {

		@Bean
		ImportTools importTools() {
			return new ImportTools();
		}

	}

}
