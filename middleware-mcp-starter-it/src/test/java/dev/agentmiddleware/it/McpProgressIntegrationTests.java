package dev.agentmiddleware.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
 * Progress over MCP, end to end over real HTTP with the MCP Java SDK client and its
 * progress consumer: a call that sent a {@code progressToken} and waits for approval is
 * told what it waits for, and a tool's own reports reach the client (a report within the
 * interval at the interval's end, the last before the result); a call without a token
 * gets no notification.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpProgressIntegrationTests.ImportConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "agent.middleware.mcp.progress-interval=100ms",
				"agent.middleware.approval.exempt-tools=utcOffset" })
class McpProgressIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	ApprovalMiddleware approval;

	@Autowired
	CountDownLatch stepTwoHeard;

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
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> this.client.callTool(CallToolRequest.builder()
				.name("delete_note")
				.arguments(Map.of("name", "todo"))
				.progressToken("p-1")
				.build()));
		// The SDK client hands each notification to the consumer on a worker thread of
		// its own, so two may reach
		// the queue in either order: take them in the order of their progress, which is
		// the order they were sent in
		List<ProgressNotification> two = inOrderOfProgress(2);
		ProgressNotification first = two.get(0);
		ProgressNotification second = two.get(1);
		for (ProgressNotification notification : two) {
			assertThat(notification.progressToken()).isEqualTo("p-1");
			assertThat(notification.message()).matches("waiting for approval of delete_note, 1[12]\\d s left");
			assertThat(notification.total()).isEqualTo(120.0);
		}
		// The second about the interval later, with more progress. Reports are at least
		// the interval apart on the
		// reporter's clock, but the progress is the wait's clock, read a moment before (a
		// moment that a loaded
		// machine can stretch by a preemption or a GC pause), in whole milliseconds: so
		// compare milliseconds, not
		// doubles (0.008 + 0.1 is 0.10800000000000001), with half an interval of slack.
		// Without the interval the
		// wait would report as fast as it loops, a millisecond or less apart
		assertThat(second.progress()).isGreaterThan(first.progress());
		long millisBetween = Math.round(second.progress() * 1000) - Math.round(first.progress() * 1000);
		assertThat(millisBetween).isGreaterThanOrEqualTo(50);
		assertThat(call).isNotDone();

		List<ApprovalRequest> pending = this.approval.store().pending(Instant.now());
		assertThat(pending).singleElement().extracting(ApprovalRequest::toolName).isEqualTo("delete_note");
		this.approval.store().decide(pending.get(0).id(), ApprovalDecision.approve("tester"), Instant.now());

		CallToolResult result = call.get(10, TimeUnit.SECONDS);
		assertThat(result.isError()).isFalse();
		assertThat(((TextContent) result.content().get(0)).text()).isEqualTo("Deleted todo");
	}

	@Test
	void aReportSoonerThanTheIntervalReachesTheClientAtTheIntervalsEndWhileTheToolRuns() throws Exception {
		CompletableFuture<CallToolResult> call = CompletableFuture.supplyAsync(() -> this.client
			.callTool(CallToolRequest.builder().name("two_steps").arguments(Map.of()).progressToken("steps").build()));
		// Step 2 came within the interval of step 1: it is sent at the interval's end,
		// while the tool still waits for
		// the client to have heard it
		List<ProgressNotification> two = inOrderOfProgress(2);
		assertThat(two).extracting(ProgressNotification::message).containsExactly("step 1", "step 2");
		assertThat(call).isNotDone();
		this.stepTwoHeard.countDown();
		CallToolResult result = call.get(10, TimeUnit.SECONDS);
		assertThat(result.isError()).isFalse();
		assertThat(inOrderOfProgress(1)).extracting(ProgressNotification::progress).containsExactly(3.0);
	}

	@Test
	void toolsOwnProgressReachesTheClientAtMostOncePerInterval() throws Exception {
		CallToolResult result = this.client.callTool(
				CallToolRequest.builder().name("import_rows").arguments(Map.of("rows", 50)).progressToken(7).build());
		assertThat(result.isError()).isFalse();
		// Row 1's report is always sent. The SDK client hands each notification to the
		// consumer on a worker thread
		// of its own, so the reports may reach the queue in any order, some after the
		// result: wait for row 1's
		List<ProgressNotification> all = new ArrayList<>();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (all.stream().noneMatch((notification) -> notification.progress() == 1.0)) {
			ProgressNotification next = this.received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
			assertThat(next).as("the report of row 1").isNotNull();
			all.add(next);
		}
		this.received.drainTo(all);
		all.sort(Comparator.comparingDouble(ProgressNotification::progress));
		ProgressNotification first = all.get(0);
		assertThat(first.progressToken()).isEqualTo(7);
		assertThat(first.progress()).isEqualTo(1.0);
		assertThat(first.total()).isEqualTo(50.0);
		assertThat(first.message()).isEqualTo("imported 1 of 50 rows");
		// Fifty reports within a few milliseconds: the interval lets few through, each
		// with more progress (sent in
		// that order, so no two with the same progress), and the last, which waited,
		// before the result
		while (all.stream().noneMatch((notification) -> notification.progress() == 50.0)) {
			ProgressNotification next = this.received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
			assertThat(next).as("the report of row 50").isNotNull();
			all.add(next);
		}
		this.received.drainTo(all);
		all.sort(Comparator.comparingDouble(ProgressNotification::progress));
		assertThat(all.get(all.size() - 1).message()).isEqualTo("imported 50 of 50 rows");
		assertThat(all.size()).isLessThan(50);
		assertThat(all).extracting(ProgressNotification::progress).doesNotHaveDuplicates();
		assertThat(all).allSatisfy((notification) -> {
			assertThat(notification.progressToken()).isEqualTo(7);
			assertThat(notification.total()).isEqualTo(50.0);
			assertThat(notification.message())
				.isEqualTo("imported " + Math.round(notification.progress()) + " of 50 rows");
		});
	}

	private List<ProgressNotification> inOrderOfProgress(int count) throws InterruptedException {
		List<ProgressNotification> notifications = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			ProgressNotification notification = this.received.poll(10, TimeUnit.SECONDS);
			assertThat(notification).as("progress notification %d of %d", i + 1, count).isNotNull();
			notifications.add(notification);
		}
		notifications.sort(Comparator.comparingDouble(ProgressNotification::progress));
		return notifications;
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

	/**
	 * A tool whose second report comes within the interval of its first, and that waits
	 * until the client heard it.
	 */
	public static class StepTools {

		private final CountDownLatch stepTwoHeard;

		StepTools(CountDownLatch stepTwoHeard) {
			this.stepTwoHeard = stepTwoHeard;
		}

		@AgentTool(description = "Runs three steps", safety = SafetyLevel.SAFE, openWorld = false)
		public String twoSteps(ToolProgress progress) throws InterruptedException {
			progress.report(1, 3, "step 1");
			progress.report(2, 3, "step 2");
			if (!this.stepTwoHeard.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("step 2 was not heard");
			}
			progress.report(3, 3, "step 3");
			return "done";
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ImportConfiguration {

		@Bean
		ImportTools importTools() {
			return new ImportTools();
		}

		@Bean
		CountDownLatch stepTwoHeard() {
			return new CountDownLatch(1);
		}

		@Bean
		StepTools stepTools(CountDownLatch stepTwoHeard) {
			return new StepTools(stepTwoHeard);
		}

	}

}
