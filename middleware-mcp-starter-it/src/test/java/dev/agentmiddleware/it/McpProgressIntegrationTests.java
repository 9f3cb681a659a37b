package dev.agentmiddleware.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalRequest;
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
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress over MCP, end to end over real HTTP with the MCP Java SDK client and its progress consumer: a call that
 * sent a {@code progressToken} and waits for approval is told what it waits for, and a tool's own reports reach the
 * client; a call without a token gets no notification.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpProgressIntegrationTests.ImportConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "agent.middleware.mcp.progress-interval=100ms",
				"agent.middleware.approval.exempt-tools=utcOffset" })
class McpProgressIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	ApprovalMiddleware approval;

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
	void callWaitingForApprovalIsToldWhatItWaitsForUntilApproved() throws Exception {
		CompletableFuture<CallToolResult> call = CompletableFuture.supplyAsync(() -> this.client.callTool(
				CallToolRequest.builder().name("delete_note").arguments(Map.of("name", "todo")).progressToken("p-1")
					.build()));
		ProgressNotification first = this.received.poll(10, TimeUnit.SECONDS);
		assertThat(first).isNotNull();
		assertThat(first.progressToken()).isEqualTo("p-1");
		assertThat(first.message()).matches("waiting for approval of delete_note, 1[12]\\d s left");
		assertThat(first.total()).isEqualTo(120.0);
		// A second one, about the interval later, with more progress. Progress is in whole milliseconds and the
		// reporter's clock is read a moment after the wait's, so compare milliseconds with one of slack rather
		// than doubles exactly (0.008 + 0.1 is 0.10800000000000001)
		ProgressNotification second = this.received.poll(10, TimeUnit.SECONDS);
		assertThat(second).isNotNull();
		assertThat(second.progress()).isGreaterThan(first.progress());
		long millisBetween = Math.round(second.progress() * 1000) - Math.round(first.progress() * 1000);
		assertThat(millisBetween).isGreaterThanOrEqualTo(99);
		assertThat(call).isNotDone();

		List<ApprovalRequest> pending = this.approval.store().pending(Instant.now());
		assertThat(pending).singleElement().extracting(ApprovalRequest::toolName).isEqualTo("delete_note");
		this.approval.store().decide(pending.get(0).id(), ApprovalDecision.approve("tester"), Instant.now());

		CallToolResult result = call.get(10, TimeUnit.SECONDS);
		assertThat(result.isError()).isFalse();
		assertThat(((TextContent) result.content().get(0)).text()).isEqualTo("Deleted todo");
	}

	@Test
	void toolsOwnProgressReachesTheClientAtMostOncePerInterval() throws Exception {
		CallToolResult result = this.client.callTool(CallToolRequest.builder()
			.name("import_rows")
			.arguments(Map.of("rows", 50))
			.progressToken(7)
			.build());
		assertThat(result.isError()).isFalse();
		ProgressNotification first = this.received.poll(10, TimeUnit.SECONDS);
		assertThat(first).isNotNull();
		assertThat(first.progressToken()).isEqualTo(7);
		assertThat(first.progress()).isEqualTo(1.0);
		assertThat(first.total()).isEqualTo(50.0);
		assertThat(first.message()).isEqualTo("imported 1 of 50 rows");
		List<ProgressNotification> rest = new ArrayList<>();
		this.received.drainTo(rest);
		// Fifty reports within a few milliseconds: the interval lets few through, each with more progress
		assertThat(rest.size()).isLessThan(49);
		double last = first.progress();
		for (ProgressNotification notification : rest) {
			assertThat(notification.progress()).isGreaterThan(last);
			last = notification.progress();
		}
	}

	@Test
	void callWithoutAProgressTokenGetsNoNotification() throws Exception {
		CallToolResult result = this.client
			.callTool(CallToolRequest.builder().name("import_rows").arguments(Map.of("rows", 3)).build());
		assertThat(((TextContent) result.content().get(0)).text()).isEqualTo("3");
		// The answer came after anything the call sent, on the same stream
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
