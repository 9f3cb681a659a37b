package dev.agentmiddleware.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One MCP session with the sample app, opened with the MCP Java SDK's client over
 * Streamable HTTP. Each session has its own MCP session id, hence its own session-scoped
 * cache entries and rate-limit budget.
 */
final class McpSession implements AutoCloseable {

	private final McpSyncClient client;

	private final InitializeResult initialized;

	private McpSession(McpSyncClient client, InitializeResult initialized) {
		this.client = client;
		this.initialized = initialized;
	}

	/**
	 * Connects to the app and initializes a new session.
	 * @param port the app's port
	 * @return the open session
	 */
	static McpSession open(int port) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + port)
			.endpoint("/mcp")
			.build();
		// Calls that wait for a person (approval tests) may take a while on a loaded
		// machine: the ceiling is
		// generous, and a test that works finishes long before it
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
		return new McpSession(client, client.initialize());
	}

	/**
	 * Connects to the app with a bearer token on every request and initializes a new
	 * session.
	 * @param port the app's port
	 * @param bearerToken the access token
	 * @return the open session
	 */
	static McpSession open(int port, String bearerToken) {
		return openWithAuthorization(port, "Bearer " + bearerToken);
	}

	/**
	 * Connects to the app as a user, with HTTP Basic credentials on every request.
	 * @param port the app's port
	 * @param username the user
	 * @param password the user's password
	 * @return the open session
	 */
	static McpSession openAs(int port, String username, String password) {
		String credentials = java.util.Base64.getEncoder()
			.encodeToString((username + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
		return openWithAuthorization(port, "Basic " + credentials);
	}

	private static McpSession openWithAuthorization(int port, String authorization) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + port)
			.endpoint("/mcp")
			.requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", authorization))
			.build();
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
		return new McpSession(client, client.initialize());
	}

	/**
	 * Connects to the app as a client that supports form elicitation, answering with the
	 * given handler.
	 * @param port the app's port
	 * @param elicitation answers the server's questions
	 * @return the open session
	 */
	static McpSession openWithElicitation(int port,
			java.util.function.Function<io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest, io.modelcontextprotocol.spec.McpSchema.ElicitResult> elicitation) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + port)
			.endpoint("/mcp")
			.build();
		McpSyncClient client = McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(30))
			.capabilities(io.modelcontextprotocol.spec.McpSchema.ClientCapabilities.builder().elicitation().build())
			.elicitation(elicitation)
			.build();
		return new McpSession(client, client.initialize());
	}

	InitializeResult initialized() {
		return this.initialized;
	}

	List<Tool> tools() {
		return this.client.listTools().tools();
	}

	List<String> toolNames() {
		return tools().stream().map(Tool::name).toList();
	}

	CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.client.callTool(new CallToolRequest(tool, arguments));
	}

	/**
	 * Calls a tool on a thread of its own, for calls that wait (for an approver, say).
	 * Not the common pool: on a 2-core machine its single worker would run two waiting
	 * calls one after the other, never side by side.
	 * @param tool the tool
	 * @param arguments its arguments
	 * @return the result, when the call completes
	 */
	CompletableFuture<CallToolResult> callAsync(String tool, Map<String, Object> arguments) {
		return CompletableFuture.supplyAsync(() -> call(tool, arguments), (task) -> {
			Thread caller = new Thread(task, "mcp-test-call-" + tool);
			caller.setDaemon(true);
			caller.start();
		});
	}

	/**
	 * Calls a tool that must succeed.
	 * @param tool the tool
	 * @param arguments its arguments
	 * @return the result's text
	 */
	String succeed(String tool, Map<String, Object> arguments) {
		CallToolResult result = call(tool, arguments);
		assertThat(result.isError()).as("%s %s failed: %s", tool, arguments, result.content())
			.isNotEqualTo(Boolean.TRUE);
		return text(result);
	}

	/**
	 * Calls a tool that must fail.
	 * @param tool the tool
	 * @param arguments its arguments
	 * @return the error result's text
	 */
	String fail(String tool, Map<String, Object> arguments) {
		CallToolResult result = call(tool, arguments);
		assertThat(result.isError()).as("%s %s succeeded: %s", tool, arguments, result.content()).isTrue();
		return text(result);
	}

	static String text(CallToolResult result) {
		assertThat(result.content()).singleElement().isInstanceOf(TextContent.class);
		return ((TextContent) result.content().get(0)).text();
	}

	@Override
	public void close() {
		this.client.closeGracefully();
	}

}
