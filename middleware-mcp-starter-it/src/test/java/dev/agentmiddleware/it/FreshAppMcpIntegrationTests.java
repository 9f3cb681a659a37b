package dev.agentmiddleware.it;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A brand-new Boot application whose only dependency is the MCP starter, with no version
 * pins and no properties, serves its tools over Streamable HTTP on {@code /mcp}.
 */
@SpringBootTest(classes = FreshMcpApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class FreshAppMcpIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void hasNoConfigurationOfItsOwn() {
		assertThat(new ClassPathResource("application.properties").exists()).isFalse();
		assertThat(new ClassPathResource("application.yml").exists()).isFalse();
		assertThat(new ClassPathResource("application.yaml").exists()).isFalse();
	}

	@Test
	void servesToolsListOnMcp() {
		try (McpSyncClient client = McpClients.connect(this.port)) {
			assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
				// not the todo built-in's tools: those join a ChatClient's loop, and MCP
				// only when asked
				// (agent.middleware.todo.mcp.enabled)
				.containsExactlyInAnyOrder("forecast", "convert", "delete_note", "utcOffset");
		}
	}

}
