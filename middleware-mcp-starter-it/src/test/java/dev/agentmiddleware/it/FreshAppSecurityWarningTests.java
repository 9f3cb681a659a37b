package dev.agentmiddleware.it;

import io.modelcontextprotocol.client.McpSyncClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh application without an OAuth2 resource server: its MCP endpoint works as
 * before, for anyone, and startup says so in exactly one WARN that names the fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class FreshAppSecurityWarningTests {

	@Test
	void unauthenticatedEndpointServesAnyoneAndStartupWarnsOnceNamingTheFix(CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.run(FreshMcpApplication.class,
				"--server.port=0")) {
			assertThat(output.getOut()
				.lines()
				.filter((line) -> line.contains(" WARN "))
				.filter((line) -> line.contains("MCP endpoint"))).singleElement()
				.asString()
				.contains("The MCP endpoint /mcp authenticates nobody")
				.contains("spring-boot-starter-oauth2-resource-server")
				.contains("spring.security.oauth2.resourceserver.jwt.issuer-uri")
				.contains("agent.middleware.mcp.security.allow-anonymous=true");
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			try (McpSyncClient client = McpClients.connect(port)) {
				assertThat(client.listTools().tools()).isNotEmpty();
			}
		}
	}

	@Test
	void allowAnonymousDeclaresItIntended(CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.run(FreshMcpApplication.class,
				"--server.port=0", "--agent.middleware.mcp.security.allow-anonymous=true")) {
			assertThat(output).doesNotContain("authenticates nobody");
		}
	}

}
