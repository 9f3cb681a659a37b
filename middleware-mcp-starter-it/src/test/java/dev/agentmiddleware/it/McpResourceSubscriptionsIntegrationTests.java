package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.agentmiddleware.autoconfigure.mcp.McpResourceUpdates;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult.CompleteCompletion;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SubscribeRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.UnsubscribeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Resource subscriptions, switched on by
 * {@code agent.middleware.mcp.resources.subscribe}, end to end over real HTTP with MCP
 * Java SDK clients: the server advertises {@code subscribe}, answers
 * {@code resources/subscribe} and {@code resources/unsubscribe}, and
 * {@link McpResourceUpdates#updated(String)} reaches exactly the sessions subscribed to
 * that resource. Reads of resources, prompts and completions are counted and logged with
 * the caller's principal, as tool calls are, and a session's resources and prompts, like
 * its tools, are only its principal's.
 */
@SpringBootTest(
		classes = { FreshMcpApplication.class, McpResourceSubscriptionsIntegrationTests.PriceConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.ai.mcp.server.annotation-scanner.enabled=true",
				"agent.middleware.mcp.resources.subscribe=true",
				"logging.level.dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport=debug" })
@Import(McpSessionOwnerIntegrationTests.PrincipalFromHeader.class)
@ExtendWith(OutputCaptureExtension.class)
class McpResourceSubscriptionsIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	McpResourceUpdates resourceUpdates;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	McpSyncServer mcpServer;

	@Test
	void serverAdvertisesSubscriptions() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
		}
	}

	@Test
	void updateReachesOnlyTheSessionsSubscribedToThatResourceUntilTheyUnsubscribe() {
		Queue<String> pricesUpdates = new ConcurrentLinkedQueue<>();
		Queue<String> stockUpdates = new ConcurrentLinkedQueue<>();
		Queue<String> bystanderUpdates = new ConcurrentLinkedQueue<>();
		try (McpSyncClient prices = connect("alice", pricesUpdates);
				McpSyncClient stock = connect("bob", stockUpdates);
				McpSyncClient bystander = connect("carol", bystanderUpdates)) {
			prices.subscribeResource(new SubscribeRequest("prices://current"));
			stock.subscribeResource(new SubscribeRequest("stock://current"));

			this.resourceUpdates.updated("prices://current");
			await().atMost(Duration.ofSeconds(10)).until(() -> !pricesUpdates.isEmpty());
			assertThat(pricesUpdates).containsExactly("prices://current");

			this.resourceUpdates.updated("stock://current");
			await().atMost(Duration.ofSeconds(10)).until(() -> !stockUpdates.isEmpty());
			assertThat(stockUpdates).containsExactly("stock://current");

			prices.unsubscribeResource(new UnsubscribeRequest("prices://current"));
			this.resourceUpdates.updated("prices://current");
			// A later update of the resource stock's client watches shows the earlier one
			// had time to arrive
			this.resourceUpdates.updated("stock://current");
			await().atMost(Duration.ofSeconds(10)).until(() -> stockUpdates.size() == 2);
			assertThat(pricesUpdates).containsExactly("prices://current");
			assertThat(bystanderUpdates).isEmpty();
		}
	}

	@Test
	void notificationsToASessionWithoutAListeningStreamAreLoggedAtDebugNotWarn(CapturedOutput output) throws Exception {
		RawMcpHttp mcp = new RawMcpHttp(this.port);
		// A session whose client opened no listening stream, as one that went away
		String session = mcp.initialize();
		HttpResponse<String> subscribed = mcp.post(mcp.sessionHeaders(session),
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"stock://current\"}}");
		assertThat(subscribed.statusCode()).as(subscribed.body()).isEqualTo(200);

		this.resourceUpdates.updated("stock://current");
		this.mcpServer.notifyToolsListChanged();

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(lines(output, "notifications/resources/updated")).isNotEmpty()
				.allSatisfy((line) -> assertThat(line).contains("DEBUG"));
			assertThat(lines(output, "notifications/tools/list_changed")).isNotEmpty()
				.allSatisfy((line) -> assertThat(line).contains("DEBUG"));
		});
		// Neither this transport's warning nor the MCP SDK's error of a failed update
		assertThat(
				output.getOut()
					.lines()
					.filter((line) -> (line.contains("WARN") && line.contains("MCP notification"))
							|| line.contains("Failed to notify session") || line.contains("Could not notify")))
			.isEmpty();
	}

	// The lines logged of a notification to the session
	private static List<String> lines(CapturedOutput output, String method) {
		return output.getOut().lines().filter((line) -> line.contains("MCP notification '" + method + "'")).toList();
	}

	@Test
	void resourcesPromptsAndCompletionsAreCountedAndLoggedWithTheirPrincipal(CapturedOutput output) {
		try (McpSyncClient client = connect("alice", new ConcurrentLinkedQueue<>())) {
			ReadResourceResult read = client.readResource(new ReadResourceRequest("prices://current"));
			assertThat(((TextResourceContents) read.contents().get(0)).text()).isEqualTo("EUR 12.50");
			GetPromptResult prompt = client.getPrompt(new GetPromptRequest("summarize", Map.of("topic", "q1")));
			assertThat(((TextContent) prompt.messages().get(0).content()).text()).isEqualTo("Summarize q1");
			CompleteResult completion = client.completeCompletion(
					new CompleteRequest(new io.modelcontextprotocol.spec.McpSchema.PromptReference("summarize"),
							new CompleteRequest.CompleteArgument("topic", "q")));
			assertThat(completion.completion().values()).containsExactly("q1", "q2");
		}
		assertThat(this.meterRegistry.get("agent.mcp.request")
			.tag("mcp.method", "resources/read")
			.tag("mcp.target", "prices://current")
			.tag("outcome", "success")
			.timer()
			.count()).isPositive();
		assertThat(this.meterRegistry.get("agent.mcp.request")
			.tag("mcp.method", "prompts/get")
			.tag("mcp.target", "summarize")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.meterRegistry.get("agent.mcp.request")
			.tag("mcp.method", "completion/complete")
			.tag("mcp.target", "ref/prompt:summarize")
			.timer()
			.count()).isEqualTo(1);
		assertThat(output).containsPattern(
				"mcp=resources/read target='prices://current' session=sid-[0-9a-f]+ principal='alice' outcome=success")
			.containsPattern(
					"mcp=prompts/get target='summarize' session=sid-[0-9a-f]+ principal='alice' " + "outcome=success")
			.contains("mcp=completion/complete target='ref/prompt:summarize'");
	}

	@Test
	void resourceRequestsInAnotherPrincipalsSessionAreAnsweredAsForAnUnknownSession() throws Exception {
		RawMcpHttp mcp = new RawMcpHttp(this.port);
		Map<String, String> alice = RawMcpHttp.jsonHeaders();
		alice.put("X-Test-User", "alice");
		HttpResponse<String> initialized = mcp.post(alice, RawMcpHttp.INITIALIZE);
		assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
		String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		for (String request : new String[] {
				"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"prices://current\"}}",
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"prices://current\"}}",
				"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/get\",\"params\":{\"name\":\"summarize\","
						+ "\"arguments\":{\"topic\":\"q1\"}}}" }) {
			Map<String, String> bob = mcp.sessionHeaders(session);
			bob.put("X-Test-User", "bob");
			HttpResponse<String> refused = mcp.post(bob, request);
			assertThat(refused.statusCode()).as(request).isEqualTo(404);
			assertThat(RawMcpHttp.error(refused).get("code").asInt()).isEqualTo(-32001);
			Map<String, String> owner = mcp.sessionHeaders(session);
			owner.put("X-Test-User", "alice");
			HttpResponse<String> served = mcp.post(owner, request);
			assertThat(served.statusCode()).as(request).isEqualTo(200);
			assertThat(served.body()).as(request).doesNotContain("\"error\"");
		}
	}

	private McpSyncClient connect(String user, Queue<String> updates) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp")
			.httpRequestCustomizer((request, method, uri, body, context) -> request.header("X-Test-User", user))
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(10))
			.resourcesUpdateConsumer(
					(List<ResourceContents> contents) -> contents.forEach((content) -> updates.add(content.uri())))
			.build();
		client.initialize();
		return client;
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class PriceConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		PriceResources priceResources() {
			return new PriceResources();
		}

	}

	public static class PriceResources {

		@McpResource(uri = "prices://current", name = "Current prices", mimeType = "text/plain")
		public ReadResourceResult prices() {
			return new ReadResourceResult(
					List.of(new TextResourceContents("prices://current", "text/plain", "EUR 12.50")));
		}

		@McpResource(uri = "stock://current", name = "Current stock", mimeType = "text/plain")
		public ReadResourceResult stock() {
			return new ReadResourceResult(List.of(new TextResourceContents("stock://current", "text/plain", "7")));
		}

		@McpPrompt(name = "summarize", description = "Summarizes a topic")
		public GetPromptResult summarize(@McpArg(name = "topic", required = true) String topic) {
			return new GetPromptResult(null,
					List.of(new PromptMessage(Role.USER, new TextContent("Summarize " + topic))));
		}

		@McpComplete(prompt = "summarize")
		public CompleteResult completeTopic(CompleteRequest request) {
			List<String> values = List.of("q1", "q2", "h1")
				.stream()
				.filter((value) -> value.startsWith(request.argument().value()))
				.toList();
			return new CompleteResult(new CompleteCompletion(values, values.size(), false));
		}

	}

}
