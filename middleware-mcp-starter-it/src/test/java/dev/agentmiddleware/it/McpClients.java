package dev.agentmiddleware.it;

import java.time.Duration;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

/**
 * MCP Java SDK clients of the application under test, over Streamable HTTP.
 */
final class McpClients {

	private McpClients() {
	}

	static McpSyncClient connect(int port) {
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + port)
			.endpoint("/mcp")
			.build();
		McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(10)).build();
		client.initialize();
		return client;
	}

}
