package dev.agentmiddleware.test;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalDeniedException;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AutoApprovalCallbackTests {

	@Test
	void anApprovedCallRunsTheGatedToolAndTheRequestIsRecorded() throws Exception {
		FileTools files = new FileTools();
		AutoApprovalCallback approvals = AutoApprovalCallback.builder()
			.approveWhen((request) -> request.arguments().contains("\"tmp/"))
			.build();
		try (ToolHarness delete = harness(files, approvals)) {
			assertThat(delete.layers()).contains("approval").last().isEqualTo("delete_file");
			assertThat(delete.call(Map.of("path", "tmp/a"))).isEqualTo("deleted tmp/a");
			assertThat(files.deletes).hasValue(1);
			assertThat(approvals.requests("delete_file")).singleElement().satisfies((request) -> {
				assertThat(request.arguments()).isEqualTo("{\"path\":\"tmp/a\"}");
				assertThat(request.safety()).isEqualTo(SafetyLevel.DANGEROUS);
			});
		}
	}

	@Test
	void aDeniedCallNeverRunsTheToolAndTheObserverSeesTheDenial() {
		FileTools files = new FileTools();
		AutoApprovalCallback approvals = AutoApprovalCallback.builder()
			.deny("delete_file", "never in tests")
			.otherwiseApprove()
			.build();
		try (ToolHarness delete = harness(files, approvals)) {
			assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> delete.call(Map.of("path", "a")))
				.withMessageContaining("auto-approval denied it: never in tests");
			assertThat(files.deletes).hasValue(0);
			ToolCallRecord denied = delete.observer().lastRecord("delete_file");
			assertThat(denied.outcome()).isEqualTo(CallOutcome.DENIED);
			assertThat(denied.decidedBy()).isEqualTo("approval");
			assertThat(approvals.requests()).hasSize(1);
		}
	}

	@Test
	void theFirstMatchingRuleDecidesAndWhatNoRuleMatchesIsDenied() {
		AutoApprovalCallback approvals = AutoApprovalCallback.builder()
			.approve("write_file")
			.denyWhen((request) -> request.arguments().contains("etc/"), "not under etc/")
			.approveWhen((request) -> request.toolName().startsWith("delete"))
			.decidedBy("robot")
			.build();
		assertThat(approvals.decide(request("write_file", "{\"path\":\"etc/x\"}")))
			.isEqualTo(ApprovalDecision.approve("robot"));
		assertThat(approvals.decide(request("delete_file", "{\"path\":\"etc/x\"}")))
			.isEqualTo(ApprovalDecision.deny("robot", "not under etc/"));
		assertThat(approvals.decide(request("delete_file", "{\"path\":\"a\"}")))
			.isEqualTo(ApprovalDecision.approve("robot"));
		assertThat(approvals.decide(request("move_file", "{}")))
			.isEqualTo(ApprovalDecision.deny("robot", "no rule of the test approves it"));
		assertThat(approvals.requests()).extracting(ApprovalRequest::toolName)
			.containsExactly("write_file", "delete_file", "delete_file", "move_file");
		approvals.clear();
		assertThat(approvals.requests()).isEmpty();
	}

	@Test
	void approveAllAndDenyAllDecideEveryRequest() {
		assertThat(AutoApprovalCallback.approveAll().decide(request("any", "{}")).outcome())
			.isEqualTo(ApprovalDecision.approve(AutoApprovalCallback.DECIDED_BY).outcome());
		assertThat(AutoApprovalCallback.denyAll("frozen").decide(request("any", "{}")))
			.isEqualTo(ApprovalDecision.deny(AutoApprovalCallback.DECIDED_BY, "frozen"));
	}

	private static ToolHarness harness(FileTools files, AutoApprovalCallback approvals) {
		return ToolHarness.agentTool(files).bean(ApprovalCallback.class, approvals).build();
	}

	private static ApprovalRequest request(String tool, String arguments) {
		Instant now = Instant.parse("2026-01-01T00:00:00Z");
		return new ApprovalRequest("r1", tool, SafetyLevel.DANGEROUS, arguments, "hash", null, null,
				tool + " " + arguments, now, now.plusSeconds(60));
	}

	public static class FileTools {

		final AtomicInteger deletes = new AtomicInteger();

		@AgentTool(description = "Deletes a file", safety = SafetyLevel.DANGEROUS)
		public String deleteFile(String path) {
			this.deletes.incrementAndGet();
			return "deleted " + path;
		}

	}

}
