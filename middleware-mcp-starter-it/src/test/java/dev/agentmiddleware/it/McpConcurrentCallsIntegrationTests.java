package dev.agentmiddleware.it;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code max-concurrent-calls} over real HTTP with the MCP Java SDK client: while a
 * session's call of a tool runs, its next call of the tool is answered like a
 * rate-limited one, another session's call runs, and the slot is free again once the
 * running call ends.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpConcurrentCallsIntegrationTests.Gated.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.rate-limit.tools.hold.max-concurrent-calls=1")
class McpConcurrentCallsIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	GateTools gate;

	@Test
	void aSessionsSecondRunningCallIsRateLimitedAndOtherSessionsAreNot() throws Exception {
		try (McpSyncClient first = McpClients.connect(this.port);
				McpSyncClient second = McpClients.connect(this.port)) {
			CompletableFuture<CallToolResult> running = CompletableFuture
				.supplyAsync(() -> first.callTool(new CallToolRequest("hold", Map.of("wait", true))));
			try {
				assertThat(this.gate.awaitStarted()).isTrue();
				CallToolResult refused = first.callTool(new CallToolRequest("hold", Map.of("wait", false)));
				assertThat(refused.isError()).isTrue();
				assertThat(text(refused))
					.isEqualTo("Tool 'hold' is rate limited (1 call of this session already running)");
				CallToolResult other = second.callTool(new CallToolRequest("hold", Map.of("wait", false)));
				assertThat(other.isError()).as(text(other)).isNotEqualTo(Boolean.TRUE);
			}
			finally {
				this.gate.release();
			}
			assertThat(text(running.get(10, TimeUnit.SECONDS))).isEqualTo("held");
			CallToolResult again = first.callTool(new CallToolRequest("hold", Map.of("wait", false)));
			assertThat(text(again)).as("the slot is given back when the call ends").isEqualTo("passed");
		}
	}

	private static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	// A class-based proxy wraps the tool bean: the test talks to it through methods, not
	// fields
	public static class GateTools {

		private final CountDownLatch started = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		public boolean awaitStarted() throws InterruptedException {
			return this.started.await(10, TimeUnit.SECONDS);
		}

		public void release() {
			this.release.countDown();
		}

		@AgentTool(description = "Holds until the test releases it, or passes at once", safety = SafetyLevel.SAFE,
				openWorld = false)
		public String hold(boolean wait) throws InterruptedException {
			if (!wait) {
				return "passed";
			}
			this.started.countDown();
			this.release.await(10, TimeUnit.SECONDS);
			return "held";
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Gated {

		@Bean
		GateTools gateTools() {
			return new GateTools();
		}

	}

}
