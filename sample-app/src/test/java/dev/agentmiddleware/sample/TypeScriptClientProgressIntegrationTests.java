package dev.agentmiddleware.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress while an approval waits, with the official MCP TypeScript SDK client
 * ({@code src/test/node/mcp-client/progress-client.mjs}): its {@code delete_file} call,
 * sent with a {@code progressToken} ({@code onprogress}), is told that it waits for
 * approval; an approver approves through the REST API, and the call completes. The
 * sample's report generator reports its own progress the same way, in percent
 * ({@link TypeScriptClientFeaturesIntegrationTests} shows its last report, 100/100).
 */
@RequiresService(TestService.NODE)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"agent.middleware.mcp.progress-interval=200ms",
				// A report of 1 s against the sample's 2 s timeout leaves a loaded CI
				// machine 1 s for everything else;
				// timing out is not what this test is about
				// (ResilienceMcpIntegrationTests is)
				"agent.middleware.timeout.tools.generate-report.timeout=30s" })
class TypeScriptClientProgressIntegrationTests {

	private static final Path CLIENT_DIRECTORY = Paths.get("target/ts-mcp-client");

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void typeScriptClientIsToldItsCallWaitsForApprovalUntilApproved() throws Exception {
		Path file = workspace.resolve("progress.txt");
		Files.writeString(file, "keep me until approved");
		Process client = start("delete_file", "{\"path\":\"progress.txt\"}");
		BlockingQueue<String> lines = lines(client);
		try {
			JsonNode progress = next(lines).get("progress");
			assertThat(progress).as("a progress notification first").isNotNull();
			assertThat(progress.get("message").asString())
				.matches("waiting for approval of delete_file, 1[12]\\d s left");
			assertThat(progress.get("total").asDouble()).isEqualTo(120.0);
			JsonNode later = next(lines).get("progress");
			assertThat(later).as("another one, while the call still waits").isNotNull();
			assertThat(later.get("progress").asDouble()).isGreaterThan(progress.get("progress").asDouble());
			assertThat(file).exists();

			ApprovalApi approver = new ApprovalApi(this.port, "alice", "alice-secret");
			JsonNode pending = approver.awaitPendingFor("delete_file", "progress.txt");
			assertThat(approver.approve(pending.get("id").asString()).status()).isEqualTo(200);

			JsonNode result = nextResult(lines);
			assertThat(result.get("isError").asBoolean()).isFalse();
			assertThat(result.get("text").asString()).isEqualTo("Deleted progress.txt");
			assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(client.exitValue()).isZero();
			assertThat(file).doesNotExist();
		}
		finally {
			client.destroyForcibly();
		}
	}

	@Test
	void sampleReportGeneratorReportsItsOwnProgress() throws Exception {
		Process client = start("generate_report", "{\"topic\":\"q3\",\"seconds\":1}");
		BlockingQueue<String> lines = lines(client);
		try {
			JsonNode progress = next(lines).get("progress");
			assertThat(progress).as("a progress notification first").isNotNull();
			assertThat(progress.get("progress").asDouble()).isZero();
			assertThat(progress.get("total").asDouble()).isEqualTo(100.0);
			assertThat(progress.get("message").asString()).isEqualTo("generating the report on q3: 0 of 1 s");
			JsonNode result = nextResult(lines);
			assertThat(result.get("isError").asBoolean()).isFalse();
			assertThat(result.get("text").asString()).isEqualTo("Report on q3: all figures nominal");
			assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(client.exitValue()).isZero();
		}
		finally {
			client.destroyForcibly();
		}
	}

	private Process start(String tool, String arguments) throws IOException, InterruptedException {
		TypeScriptClientIntegrationTests.installClient();
		Process client = new ProcessBuilder("node", "progress-client.mjs", "http://localhost:" + this.port + "/mcp",
				tool, arguments)
			.directory(CLIENT_DIRECTORY.toFile())
			.redirectErrorStream(true)
			.start();
		client.getOutputStream().close();
		return client;
	}

	// The client's output, line by line, read on a thread of its own so that a silent
	// client fails the test in time
	private static BlockingQueue<String> lines(Process client) {
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader output = new BufferedReader(
					new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = output.readLine()) != null) {
					lines.add(line);
				}
			}
			catch (IOException ex) {
				lines.add("{\"readFailed\":\"" + ex.getClass().getSimpleName() + "\"}");
			}
		}, "progress-client-output");
		reader.setDaemon(true);
		reader.start();
		return lines;
	}

	private static JsonNode next(BlockingQueue<String> lines) throws InterruptedException {
		String line = lines.poll(30, TimeUnit.SECONDS);
		assertThat(line).as("a line from the client").isNotNull();
		assertThat(line).as("a JSON line from the client").startsWith("{");
		return JsonMapper.shared().readTree(line);
	}

	// The call's result, after the progress notifications still on their way
	private static JsonNode nextResult(BlockingQueue<String> lines) throws InterruptedException {
		while (true) {
			JsonNode line = next(lines);
			if (line.has("result")) {
				return line.get("result");
			}
			assertThat(line.has("progress")).as("%s", line).isTrue();
		}
	}

}
