package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Result guards over MCP with the sample's defaults: a file with passwords reaches the
 * MCP client (and the log of results) with them redacted, and a file longer than 100,000
 * characters is cut with a marker saying how much was left out; both are counted.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ResultGuardsMcpIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void aConfigFileReachesTheClientWithItsPasswordsRedacted(CapturedOutput output) throws Exception {
		Files.writeString(workspace.resolve("application.properties"),
				"spring.datasource.url=jdbc:postgresql://db.internal/orders\n"
						+ "spring.datasource.password=Sup3r-S3cret-DB\n"
						+ "mail.url=smtp://mailer:M41l-Pa55@mail.internal:587\n");
		String text;
		try (McpSession session = McpSession.open(this.port)) {
			text = session.succeed("read_file", Map.of("path", "application.properties"));
		}
		assertThat(text).isEqualTo("spring.datasource.url=jdbc:postgresql://db.internal/orders\n"
				+ "spring.datasource.password=[REDACTED]\n" + "mail.url=smtp://[REDACTED]@mail.internal:587\n");
		assertThat(output.getAll()).as("the logged result is the guarded one")
			.doesNotContain("Sup3r-S3cret-DB")
			.doesNotContain("M41l-Pa55");
		assertThat(prometheus()).contains("agent_tool_results_redacted_total{agent_tool_name=\"read_file\"");
	}

	@Test
	void aLongFileIsCutAtTheLimitWithAMarker() throws Exception {
		Files.writeString(workspace.resolve("big.log"), "INFO request served\n".repeat(15_000));
		String text;
		try (McpSession session = McpSession.open(this.port)) {
			text = session.succeed("read_file", Map.of("path", "big.log"));
		}
		assertThat(text).hasSizeLessThanOrEqualTo(100_000)
			.startsWith("INFO request served\nINFO request served\n")
			.containsPattern("… \\[cut: 2\\d\\d,\\d{3} more characters; the tool's result is longer than its limit"
					+ " of 100,000 characters]$");
		int kept = text.indexOf("… [cut: ");
		assertThat(text).contains("… [cut: " + String.format("%,d", 300_000 - kept) + " more characters");
		assertThat(prometheus()).contains("agent_tool_results_truncated_total{agent_tool_name=\"read_file\"");
	}

	private String prometheus() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

}
