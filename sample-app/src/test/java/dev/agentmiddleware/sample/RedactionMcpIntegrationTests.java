package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Secrets sent as tool arguments over MCP, in a URL query, in URL user-info and in
 * {@code Authorization} values, appear in no log line, no error text the model gets, and
 * no actuator or Prometheus output; an ordinary file name that contains "secret" comes
 * back unchanged.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class RedactionMcpIntegrationTests {

	private static final List<String> SECRETS = List.of("sk-live-QUERY7781", "hunter2-USERINFO9912", "BEARER5531xyz",
			"6629fae49393a053RESPONSE", "ghp_TOKEN4411abcdef");

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void secretsInArgumentsReachNoLogErrorOrActuatorOutput(CapturedOutput output) throws Exception {
		List<String> errors = new ArrayList<>();
		try (McpSession session = McpSession.open(this.port)) {
			errors.add(session.fail("read_file",
					Map.of("path", "https://api.example.org/v1?api_key=sk-live-QUERY7781&city=Lisbon")));
			errors
				.add(session.fail("read_file", Map.of("path", "https://admin:hunter2-USERINFO9912@db.example.org/x")));
			errors.add(session.fail("read_file", Map.of("path", "Authorization: Bearer eyJhbGciOi.BEARER5531xyz.sig")));
			errors.add(session.fail("read_file",
					Map.of("path", "Authorization: Digest username=\"ada\", response=\"6629fae49393a053RESPONSE\"")));
			errors.add(session.fail("read_file", Map.of("path", "Authorization: Token ghp_TOKEN4411abcdef")));
			String secretNotes = session.fail("read_file", Map.of("path", "my-secret-notes.txt"));
			assertThat(secretNotes).as("an ordinary file name is left alone")
				.isEqualTo("Tool 'read_file' failed: NoSuchFileException: my-secret-notes.txt: no such file in the "
						+ "workspace");
		}
		assertThat(errors).containsExactly(
				"Tool 'read_file' failed: NoSuchFileException: https://api.example.org/v1?api_key=[REDACTED]&city=Lisbon: "
						+ "no such file in the workspace",
				"Tool 'read_file' failed: NoSuchFileException: https://[REDACTED]@db.example.org/x: no such file in the "
						+ "workspace",
				"Tool 'read_file' failed: NoSuchFileException: Authorization: Bearer [REDACTED]: no such file in the "
						+ "workspace",
				"Tool 'read_file' failed: NoSuchFileException: Authorization: Digest [REDACTED]: no such file in the "
						+ "workspace",
				"Tool 'read_file' failed: NoSuchFileException: Authorization: Token [REDACTED]: no such file in the "
						+ "workspace");
		String logs = output.getAll();
		assertThat(logs).as("the calls were logged")
			.contains("tool=read_file", "api_key=[REDACTED]", "path=\"my-secret-notes.txt\"");
		String endpoint = get("/actuator/agentmiddleware");
		String readFile = get("/actuator/agentmiddleware/read_file");
		assertThat(readFile).as("the learning patterns are shown").contains("no such file in the workspace");
		String prometheus = get("/actuator/prometheus");
		for (String secret : SECRETS) {
			assertThat(logs).as("logs").doesNotContain(secret);
			assertThat(String.join("\n", errors)).as("errors").doesNotContain(secret);
			assertThat(endpoint).as("actuator").doesNotContain(secret);
			assertThat(readFile).as("actuator tool").doesNotContain(secret);
			assertThat(prometheus).as("prometheus").doesNotContain(secret);
		}
	}

	private String get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		return response.body();
	}

}
