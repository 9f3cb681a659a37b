package dev.agentmiddleware.autoconfigure.authorization;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationMiddleware.ToolForbiddenException;
import dev.agentmiddleware.authorization.AuthorizationRulesMiddleware;
import dev.agentmiddleware.authorization.ToolCallDecider;
import dev.agentmiddleware.authorization.ToolCallDecision;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.ToolCallScope;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Argument-aware authorization rules ({@code deny-when}, {@code allow-when}) and external
 * decision points ({@link ToolCallDecider} beans), through the real chain of a real
 * context: Java calls with a principal, the lists of tools a caller is offered, approval,
 * and the startup failures of a rule that cannot work.
 */
@ExtendWith(OutputCaptureExtension.class)
class AuthorizationRulesTests {

	private static final String TRANSFER_LIMIT = "agent.middleware.authorization.tools.transfer.deny-when[0]";

	private static final String TMP_ONLY = "agent.middleware.authorization.tools.delete-file.allow-when[0]";

	private static final ToolPrincipal BOB = ToolPrincipal.of("bob", Set.of("ROLE_CLERK"));

	private static final ToolPrincipal ALICE = ToolPrincipal.of("alice", Set.of("ROLE_CLERK", "ROLE_ADMIN"));

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AuthorizationAutoConfiguration.class, ApprovalAutoConfiguration.class))
		.withBean(BankTools.class)
		.withBean(RecordingApprover.class)
		.withPropertyValues(
				TRANSFER_LIMIT + ".expression=#args.amount > 1000 and "
						+ "!#principal.authorities.contains('ROLE_ADMIN')",
				TRANSFER_LIMIT + ".reason=Only an admin may transfer more than 1,000.",
				TMP_ONLY + ".expression=#args.path.startsWith('tmp/') and !#args.path.contains('..')",
				TMP_ONLY + ".reason=Files may be deleted under tmp/ only.",
				"agent.middleware.authorization.tools.read-audit-log.allow-when[0].expression="
						+ "#principal.authorities.contains('ROLE_AUDITOR')",
				"agent.middleware.authorization.tools.read-audit-log.allow-when[0].reason=Only auditors read the audit "
						+ "log.");

	@Test
	void anArgumentComparisonRefusesOnlyANonAdminOverTheLimit() {
		this.contextRunner.run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.transfer("carol", 5000)))
				.satisfies((ex) -> {
					assertThat(ex).hasMessage(
							"Call of tool 'transfer' is forbidden: Only an admin may transfer more " + "than 1,000.");
					assertThat(ex.reason()).isEqualTo("Only an admin may transfer more than 1,000.");
					assertThat(ex.outcome()).isEqualTo(CallOutcome.FORBIDDEN);
					assertThat(ex.decidedBy()).isEqualTo(AuthorizationRulesMiddleware.NAME);
				});
			assertThat(ToolCallScope.call("s1", BOB, () -> tools.transfer("carol", 1000)))
				.isEqualTo("sent 1000 to carol");
			assertThat(ToolCallScope.call("s1", ALICE, () -> tools.transfer("carol", 5000)))
				.isEqualTo("sent 5000 to carol");
			assertThat(tools.runs()).containsExactly("transfer", "transfer");
		});
	}

	@Test
	void aPathPrefixRuleAllowsOnlyPathsUnderTmp() {
		this.contextRunner.run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			assertThat(ToolCallScope.call("s1", BOB, () -> tools.deleteFile("tmp/report.csv")))
				.isEqualTo("deleted tmp/report.csv");
			for (String path : List.of("etc/passwd", "tmp/../etc/passwd", "/tmp/x")) {
				assertThatExceptionOfType(ToolForbiddenException.class).as(path)
					.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.deleteFile(path)))
					.withMessage("Call of tool 'delete_file' is forbidden: Files may be deleted under tmp/ only.");
			}
			assertThat(tools.runs()).containsExactly("delete_file");
		});
	}

	@Test
	void anAuthorityRuleRefusesTheCallAndHidesTheToolFromTheCallersItRefuses() {
		this.contextRunner.run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			ToolPrincipal auditor = ToolPrincipal.of("dora", Set.of("ROLE_AUDITOR"));
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.readAuditLog(10)))
				.withMessage("Call of tool 'read_audit_log' is forbidden: Only auditors read the audit log.");
			assertThat(ToolCallScope.call("s1", auditor, () -> tools.readAuditLog(10))).isEqualTo("10 lines");
			AuthorizedTools mcp = authorizedTools(context, InvocationSource.MCP);
			assertThat(mcp.permits("read_audit_log", BOB)).isFalse();
			assertThat(mcp.permits("read_audit_log", null)).isFalse();
			assertThat(mcp.permits("read_audit_log", auditor)).isTrue();
			assertThat(mcp.permits("transfer", BOB)).as("a rule over arguments cannot hide a tool").isTrue();
			assertThat(mcp.permits("delete_file", null)).isTrue();
		});
	}

	@Test
	void theToolsOfferedAskTheirBeansUntilFoundThenKeepThemInsteadOfLookingThemUpForEveryTool() {
		this.contextRunner.run((context) -> {
			AtomicInteger registryLookups = new AtomicInteger();
			AtomicInteger authorizationLookups = new AtomicInteger();
			AtomicInteger rulesLookups = new AtomicInteger();
			// The authorization beans appear at the third question, as beans created
			// later
			AuthorizedTools mcp = new AuthorizedTools(() -> {
				registryLookups.incrementAndGet();
				return context.getBean(AgentToolRegistry.class);
			}, () -> (authorizationLookups.incrementAndGet() < 3) ? null
					: context.getBean(AuthorizationMiddleware.class),
					() -> (rulesLookups.incrementAndGet() < 3) ? null
							: context.getBean(AuthorizationRulesMiddleware.class),
					InvocationSource.MCP);
			for (int i = 0; i < 10; i++) {
				assertThat(mcp.permits("read_audit_log", BOB)).as("question %d", i).isEqualTo(i < 2);
			}
			assertThat(registryLookups).as("found at once, then kept").hasValue(1);
			assertThat(authorizationLookups).as("asked until found, then kept").hasValue(3);
			// Asked after the authorities only, so not again once they refuse
			assertThat(rulesLookups).as("asked until found or no longer needed").hasValueBetween(2, 3);
		});
	}

	@Test
	void aRuleOnTheSourceHidesTheToolFromThatSourceOnly() {
		this.contextRunner.withPropertyValues(
				"agent.middleware.authorization.tools.transfer.deny-when[1].expression=#source == 'MCP'",
				"agent.middleware.authorization.tools.transfer.deny-when[1].reason=Transfers are not made over MCP.")
			.run((context) -> {
				assertThat(authorizedTools(context, InvocationSource.MCP).permits("transfer", ALICE)).isFalse();
				assertThat(authorizedTools(context, InvocationSource.SPRING_AI).permits("transfer", ALICE)).isTrue();
				BankTools tools = context.getBean(BankTools.class);
				assertThat(ToolCallScope.call("s1", ALICE, () -> tools.transfer("carol", 5)))
					.isEqualTo("sent 5 to carol");
			});
	}

	@Test
	void aCallTheRulesRefuseNeverReachesApproval() {
		this.contextRunner.run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			RecordingApprover approver = context.getBean(RecordingApprover.class);
			assertThat(layers(context, "delete_file")).containsExactly("authorization-rules", "approval",
					"delete_file");
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.deleteFile("etc/passwd")));
			assertThat(approver.asked).as("nobody is asked about a refused call").isEmpty();
			ToolCallScope.call("s1", BOB, () -> tools.deleteFile("tmp/a"));
			assertThat(approver.asked).containsExactly("delete_file");
		});
	}

	@Test
	void anArgumentThatLooksLikeAnExpressionIsData() {
		String injection = "T(java.lang.Runtime).getRuntime().exec('touch /tmp/pwned')";
		this.contextRunner.run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.deleteFile(injection)))
				.withMessage("Call of tool 'delete_file' is forbidden: Files may be deleted under tmp/ only.");
			assertThat(ToolCallScope.call("s1", BOB, () -> tools.deleteFile("tmp/" + injection)))
				.as("the tool gets the text as sent")
				.isEqualTo("deleted tmp/" + injection);
			assertThat(ToolCallScope.call("s1", BOB, () -> tools.transfer("#{T(java.lang.System).exit(1)}", 5)))
				.isEqualTo("sent 5 to #{T(java.lang.System).exit(1)}");
		});
	}

	@Test
	void aRuleThatFailsAtCallTimeRefusesTheCallAndLogsNoArgument(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues(
					"agent.middleware.authorization.tools.transfer.allow-when[0].expression="
							+ "#args.to.startsWith('acct-')",
					"agent.middleware.authorization.tools.transfer.allow-when[0]"
							+ ".reason=Transfers go to accounts only.")
			.run((context) -> {
				BankTools tools = context.getBean(BankTools.class);
				assertThat(ToolCallScope.call("s1", ALICE, () -> tools.transfer("acct-secret-7", 5)))
					.isEqualTo("sent 5 to acct-secret-7");
				assertThatExceptionOfType(ToolForbiddenException.class)
					.isThrownBy(() -> ToolCallScope.call("s1", ALICE, () -> tools.transfer(null, 77777)))
					.withMessage(
							"Call of tool 'transfer' is forbidden: " + AuthorizationRulesMiddleware.RULE_FAILED_REASON);
				assertThat(output).contains("WARN")
					.contains("agent.middleware.authorization.tools.transfer.allow-when[0]")
					.doesNotContain("77777");
			});
	}

	@Test
	void aDeciderDecidesFromTheBoundArgumentsThePrincipalAndTheSource() {
		List<String> seen = new CopyOnWriteArrayList<>();
		ToolCallDecider decider = (call) -> {
			seen.add(call.toolName() + " " + call.arguments() + " " + call.principalName() + " " + call.source());
			return "mallory".equals(call.argument("to")) ? ToolCallDecision.deny("Mallory is on the sanctions list.")
					: ToolCallDecision.allow();
		};
		this.contextRunner.withBean(ToolCallDecider.class, () -> decider).run((context) -> {
			BankTools tools = context.getBean(BankTools.class);
			assertThat(ToolCallScope.call("s1", BOB, () -> tools.transfer("carol", 5))).isEqualTo("sent 5 to carol");
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.transfer("mallory", 5)))
				.withMessage("Call of tool 'transfer' is forbidden: Mallory is on the sanctions list.");
			assertThatExceptionOfType(ToolForbiddenException.class)
				.isThrownBy(() -> ToolCallScope.call("s1", BOB, () -> tools.transfer("carol", 5000)));
			assertThat(seen).as("not asked when a rule refused the call")
				.containsExactly("transfer {to=carol, amount=5} bob JAVA", "transfer {to=mallory, amount=5} bob JAVA");
			assertThat(authorizedTools(context, InvocationSource.MCP).permits("transfer", BOB))
				.as("a decider cannot hide a tool")
				.isTrue();
		});
	}

	@Test
	void aDeciderThatFailsOrGivesNoDecisionRefusesTheCall(CapturedOutput output) {
		ToolCallDecider failing = (call) -> {
			throw new IllegalStateException("policy engine unreachable for " + call.arguments());
		};
		ToolCallDecider silent = (call) -> null;
		for (ToolCallDecider decider : List.of(failing, silent)) {
			this.contextRunner.withBean(ToolCallDecider.class, () -> decider).run((context) -> {
				BankTools tools = context.getBean(BankTools.class);
				assertThatExceptionOfType(ToolForbiddenException.class)
					.isThrownBy(() -> ToolCallScope.call("s1", ALICE, () -> tools.transfer("carol", 31337)))
					.withMessage("Call of tool 'transfer' is forbidden: "
							+ AuthorizationRulesMiddleware.DECIDER_FAILED_REASON);
				assertThat(tools.runs()).isEmpty();
				assertThat(context.getBean(RecordingApprover.class).asked).isEmpty();
			});
		}
		assertThat(output).contains("the call is denied").doesNotContain("31337");
	}

	@Test
	void aDeciderMayApplyToSomeToolsOnly() {
		ToolCallDecider transfersOnly = new ToolCallDecider() {

			@Override
			public ToolCallDecision decide(ToolInvocation call) {
				return ToolCallDecision.deny("Transfers are closed today.");
			}

			@Override
			public boolean appliesTo(dev.agentmiddleware.tool.ToolDescriptor tool) {
				return tool.name().equals("transfer");
			}

		};
		this.contextRunner.withPropertyValues("agent.middleware.authorization.tools.read-audit-log.enabled=false")
			.withBean(ToolCallDecider.class, () -> transfersOnly)
			.run((context) -> {
				assertThat(layers(context, "read_audit_log")).as("exempt from the rules, no decider")
					.containsExactly("read_audit_log");
				assertThat(layers(context, "transfer")).containsExactly("authorization-rules", "transfer");
				BankTools tools = context.getBean(BankTools.class);
				assertThat(ToolCallScope.call("s1", BOB, () -> tools.readAuditLog(3))).isEqualTo("3 lines");
				assertThatExceptionOfType(ToolForbiddenException.class)
					.isThrownBy(() -> ToolCallScope.call("s1", ALICE, () -> tools.transfer("carol", 5)))
					.withMessageEndingWith("Transfers are closed today.");
			});
	}

	@Test
	void theDefaultsRulesApplyToEveryToolWithoutRulesOfItsOwn() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
					AgentToolAutoConfiguration.class, AuthorizationAutoConfiguration.class))
			.withBean(BankTools.class)
			.withPropertyValues(
					"agent.middleware.authorization.defaults.deny-when[0].expression=#source == 'MCP' "
							+ "and !#principal.authenticated",
					"agent.middleware.authorization.defaults.deny-when[0].reason=" + "Sign in first.",
					TRANSFER_LIMIT + ".expression=#args.amount > 1000", TRANSFER_LIMIT + ".reason=Too much.")
			.run((context) -> {
				AuthorizedTools mcp = authorizedTools(context, InvocationSource.MCP);
				assertThat(mcp.permits("read_audit_log", null)).isFalse();
				assertThat(mcp.permits("read_audit_log", BOB)).isTrue();
				assertThat(mcp.permits("transfer", null)).as("its own deny-when replaces the defaults'").isTrue();
			});
	}

	@Test
	void aBadExpressionFailsStartupNamingItsProperty() {
		assertStartupFails(TRANSFER_LIMIT + ".expression=#args.amount >", TRANSFER_LIMIT + ".expression",
				"it is no valid SpEL expression");
	}

	@Test
	void anUnknownParameterFailsStartupNamingItsProperty() {
		assertStartupFails(TRANSFER_LIMIT + ".expression=#args.amout > 1000", TRANSFER_LIMIT + ".expression",
				"tool 'transfer' has no parameter 'amout'");
		assertStartupFails(TRANSFER_LIMIT + ".expression=#args['sum'] > 1000", TRANSFER_LIMIT + ".expression",
				"tool 'transfer' has no parameter 'sum'");
	}

	@Test
	void anExpressionThatReachesBeyondItsVariablesFailsStartup() {
		assertStartupFails(TMP_ONLY + ".expression=T(java.lang.Runtime).getRuntime().exec('x') == null",
				TMP_ONLY + ".expression", "is not allowed in a rule");
		assertStartupFails(TMP_ONLY + ".expression=new java.io.File(#args.path).delete()", TMP_ONLY + ".expression",
				"is not allowed in a rule");
		assertStartupFails(TMP_ONLY + ".expression=@bankTools != null", TMP_ONLY + ".expression",
				"is not allowed in a rule");
		assertStartupFails(TMP_ONLY + ".expression=#systemProperties['user.home'] != null", TMP_ONLY + ".expression",
				"'#systemProperties' is no variable of a rule");
		assertStartupFails(TMP_ONLY + ".expression=path.startsWith('tmp/')", TMP_ONLY + ".expression",
				"'path' reads nothing");
		assertStartupFails(TMP_ONLY + ".expression=#principal.roles.contains('x')", TMP_ONLY + ".expression",
				"#principal has no 'roles'");
	}

	@Test
	void aRuleWithoutAReasonFailsStartupNamingIt() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
					AgentToolAutoConfiguration.class, AuthorizationAutoConfiguration.class))
			.withBean(BankTools.class)
			.withPropertyValues(
					"agent.middleware.authorization.tools.transfer.deny-when[0].expression=#args.amount > 5")
			.run((context) -> assertThat(failure(context).getProperty()).isEqualTo(TRANSFER_LIMIT + ".reason"));
	}

	private void assertStartupFails(String assignment, String property, String reason) {
		this.contextRunner.withPropertyValues(assignment).run((context) -> {
			InvalidToolConfigurationException failure = failure(context);
			assertThat(failure.getProperty()).isEqualTo(property);
			assertThat(failure.getReason()).contains(reason);
		});
	}

	private static InvalidToolConfigurationException failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
		assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class);
		return (InvalidToolConfigurationException) cause;
	}

	private static AuthorizedTools authorizedTools(AssertableApplicationContext context, InvocationSource source) {
		return new AuthorizedTools(() -> context.getBean(AgentToolRegistry.class),
				() -> context.getBean(AuthorizationMiddleware.class),
				() -> context.getBean(AuthorizationRulesMiddleware.class), source);
	}

	private static List<String> layers(AssertableApplicationContext context, String tool) {
		assertThat(context).hasNotFailed();
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	/**
	 * Approves every call it is asked about, and remembers which tools it was asked
	 * about.
	 */
	static class RecordingApprover implements ApprovalCallback {

		final List<String> asked = new CopyOnWriteArrayList<>();

		@Override
		public ApprovalDecision decide(dev.agentmiddleware.approval.ApprovalRequest request) {
			this.asked.add(request.toolName());
			return ApprovalDecision.approve("approver");
		}

	}

	public static class BankTools {

		private final List<String> runs = new ArrayList<>();

		@AgentTool(description = "Transfers money", safety = SafetyLevel.SAFE)
		public String transfer(String to, long amount) {
			this.runs.add("transfer");
			return "sent " + amount + " to " + to;
		}

		@AgentTool(description = "Deletes a file", safety = SafetyLevel.DANGEROUS)
		public String deleteFile(String path) {
			this.runs.add("delete_file");
			return "deleted " + path;
		}

		@AgentTool(description = "Reads the audit log", safety = SafetyLevel.SAFE, readOnly = true)
		public String readAuditLog(int lines) {
			this.runs.add("read_audit_log");
			return lines + " lines";
		}

		List<String> runs() {
			return this.runs;
		}

	}

}
