package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
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
import static org.awaitility.Awaitility.await;

/**
 * The caller's trace continued, with the official MCP TypeScript SDK client
 * ({@code src/test/node/mcp-client/trace-client.mjs}): its {@code tools/call} sends a
 * {@code traceparent} in {@code _meta}, and the sample (Micrometer Tracing on
 * OpenTelemetry) logs the call with that trace id and keeps it in the call's audit
 * record.
 */
@RequiresService(TestService.NODE)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"sample.auditor.username=audrey", "sample.auditor.password=audrey-secret" })
@ExtendWith(OutputCaptureExtension.class)
class TypeScriptClientTraceContextIntegrationTests {

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
	void typeScriptClientsTraceparentIsTheTraceOfTheCallsLogLineAndAuditRecord(CapturedOutput output) throws Exception {
		String since = Instant.now().minusMillis(1).toString();
		String traceId = TraceContexts.newTraceId();
		TypeScriptClientIntegrationTests.installClient();
		Files.copy(Paths.get("src/test/node/mcp-client/trace-client.mjs"), CLIENT_DIRECTORY.resolve("trace-client.mjs"),
				StandardCopyOption.REPLACE_EXISTING);
		String result = TypeScriptClientIntegrationTests.run(List.of("node", "trace-client.mjs",
				"http://localhost:" + this.port + "/mcp", "list_files", "{}", "00-" + traceId + "-00f067aa0ba902b7-01"),
				120);
		assertThat(result).contains("\"isError\":false");
		assertThat(output.getOut().lines().filter((line) -> line.contains(traceId)))
			.as("the log lines of the call's trace")
			.anySatisfy((line) -> assertThat(line).contains("list_files"));
		await().untilAsserted(() -> assertThat(TraceContexts.auditRecords(this.port, "list_files", since))
			.contains("\"traceId\":\"" + traceId + "\""));
	}

}
