package dev.agentmiddleware.autoconfigure.approval.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.InMemoryAuditStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfigurationTests;
import dev.agentmiddleware.autoconfigure.approval.web.AuditController.AuditEntry;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.InvocationSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.server.ResponseStatusException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@ExtendWith(OutputCaptureExtension.class)
class AuditWebAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AuditAutoConfiguration.class, AuditWebAutoConfiguration.class,
				SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class))
		.withUserConfiguration(ApprovalAutoConfigurationTests.FileToolsConfiguration.class);

	@Test
	void servesTheAuditBehindItsOwnFilterChain() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(AuditController.class)
			.hasBean("auditSecurityFilterChain"));
	}

	@Test
	void withoutSpringSecurityTheAuditIsNotServedAndStartupSaysSo(CapturedOutput output) {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.security")).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(AuditController.class);
			assertThat(output).contains("The audit REST API at /agent/audit is not served: it needs Spring "
					+ "Security, to let only the 'auditor' role read the audit trail");
		});
	}

	@Test
	void filtersByTimeAndPagesNewestFirst() {
		InMemoryAuditStore store = new InMemoryAuditStore(100);
		Instant start = Instant.parse("2026-11-27T10:00:00Z");
		List<AuditRecord> records = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			records.add(new AuditRecord(start.plusSeconds(i), "c-" + i, "delete_file", InvocationSource.MCP,
					(i % 2 == 0) ? "bob" : "carol", "sid-0123456789", null,
					(i < 3) ? CallOutcome.DENIED : CallOutcome.SUCCEEDED, (i < 3) ? "approval" : null, null, null,
					Duration.ofMillis(5), "0".repeat(64), null, null));
		}
		store.append(records);
		AuditController controller = new AuditController(store);
		assertThat(controller.records(null, null, null, null, null, 0, 3).records()).extracting(AuditEntry::callId)
			.containsExactly("c-6", "c-5", "c-4");
		assertThat(controller.records(null, null, null, null, null, 2, 3).records()).extracting(AuditEntry::callId)
			.containsExactly("c-0");
		assertThat(controller.records("delete_file", "bob", "denied", null, null, 0, 50).records())
			.extracting(AuditEntry::callId)
			.containsExactly("c-2", "c-0");
		assertThat(
				controller.records(null, null, null, "2026-11-27T10:00:01Z", "2026-11-27T10:00:03Z", 0, 50).records())
			.extracting(AuditEntry::callId)
			.containsExactly("c-2", "c-1");
		AuditEntry entry = controller.records(null, null, null, null, null, 0, 1).records().get(0);
		assertThat(entry.outcome()).isEqualTo("succeeded");
		assertThat(entry.source()).isEqualTo("mcp");
		assertThat(entry.durationMs()).isEqualTo(5.0);
		assertThatExceptionOfType(ResponseStatusException.class)
			.isThrownBy(() -> controller.records(null, null, null, "yesterday", null, 0, 50));
		assertThatExceptionOfType(ResponseStatusException.class)
			.isThrownBy(() -> controller.records(null, null, null, null, null, 0, AuditController.MAX_SIZE + 1));
	}

	@Test
	void theJsonAndTheExportListTheClientRequestsOfEachCall() throws Exception {
		InMemoryAuditStore store = new InMemoryAuditStore(100);
		Instant time = Instant.parse("2026-11-27T10:00:00Z");
		store.append(List.of(
				new AuditRecord(time, "c-0", "read_file", InvocationSource.JAVA, null, null, null,
						CallOutcome.SUCCEEDED, null, null, null, Duration.ofMillis(5), "0".repeat(64), null, null),
				new AuditRecord(time.plusSeconds(1), "c-1", "book_table", InvocationSource.MCP, "bob", null, null,
						CallOutcome.SUCCEEDED, null, null, null, Duration.ofSeconds(6), "0".repeat(64), null, 7L,
						List.of(new ClientRequest(ClientRequest.Kind.ELICITATION, ClientRequest.Outcome.ACCEPT,
								Duration.ofNanos(5_230_114_000L)),
								new ClientRequest(ClientRequest.Kind.SAMPLING, ClientRequest.Outcome.UNAVAILABLE,
										Duration.ofNanos(12_000))))));
		AuditController controller = new AuditController(store);
		JsonMapper json = JsonMapper.builder().build();
		JsonNode requests = json.readTree("[{\"kind\":\"elicitation\",\"outcome\":\"accept\",\"durationMs\":5230.114},"
				+ "{\"kind\":\"sampling\",\"outcome\":\"unavailable\",\"durationMs\":0.012}]");
		JsonNode page = json.readTree(json.writeValueAsString(controller.records(null, null, null, null, null, 0, 50)));
		assertThat(page.at("/records/0/callId").asString()).isEqualTo("c-1");
		assertThat(page.at("/records/0/clientRequests")).isEqualTo(requests);
		assertThat(page.at("/records/1/clientRequests")).isEqualTo(json.readTree("[]"));
		ByteArrayOutputStream export = new ByteArrayOutputStream();
		controller.export(null, null, null, null, null).getBody().writeTo(export);
		assertThat(export.toString(StandardCharsets.UTF_8).lines().map(json::readTree)).satisfiesExactly(
				(line) -> assertThat(line.get("clientRequests")).isEqualTo(requests),
				(line) -> assertThat(line.get("clientRequests")).isEqualTo(json.readTree("[]")));
	}

}
