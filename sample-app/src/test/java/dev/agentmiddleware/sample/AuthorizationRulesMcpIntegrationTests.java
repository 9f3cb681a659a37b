package dev.agentmiddleware.sample;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Argument-aware authorization rules over real HTTP, with the MCP Java SDK's client as
 * different users: the reason of a rule that refuses a call is the client's error result,
 * the tool does not run and nobody is asked to approve it, and a tool a rule over the
 * caller alone refuses is left out of that caller's {@code tools/list}.
 */
@SpringBootTest(classes = AuthorizationRulesMcpIntegrationTests.BankApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=authorization-rules-it", "agent.middleware.todo.enabled=false",
				"agent.middleware.authorization.tools.transfer.deny-when[0].expression=#args.amount > 1000 and "
						+ "!#principal.authorities.contains('ROLE_ADMIN')",
				"agent.middleware.authorization.tools.transfer.deny-when[0].reason=Only an admin may transfer more "
						+ "than 1,000.",
				"agent.middleware.authorization.tools.delete-file.allow-when[0].expression="
						+ "#args.path.startsWith('tmp/') and !#args.path.contains('..')",
				"agent.middleware.authorization.tools.delete-file.allow-when[0].reason=Files may be deleted under tmp/ "
						+ "only.",
				"agent.middleware.authorization.tools.read-audit-log.allow-when[0].expression="
						+ "#principal.authorities.contains('ROLE_AUDITOR') and #source == 'MCP'",
				"agent.middleware.authorization.tools.read-audit-log.allow-when[0].reason=Only auditors read the "
						+ "audit log." })
class AuthorizationRulesMcpIntegrationTests {

	static final String PASSWORD = "secret-of-every-test-user";

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	BankTools tools;

	@BeforeEach
	void resetRuns() {
		this.tools.runs().clear();
	}

	@Test
	void theReasonOfARefusingRuleIsTheClientsErrorResultAndTheToolDoesNotRun() {
		try (McpSession clerk = McpSession.openAs(this.port, "bob", PASSWORD)) {
			long before = timerCount("transfer", "forbidden");
			assertThat(clerk.fail("transfer", Map.of("to", "carol", "amount", 5000)))
				.isEqualTo("Call of tool 'transfer' is forbidden: Only an admin may transfer more than 1,000. Do not "
						+ "retry this call.");
			assertThat(timerCount("transfer", "forbidden")).isEqualTo(before + 1);
			assertThat(clerk.succeed("transfer", Map.of("to", "carol", "amount", 500))).isEqualTo("sent 500 to carol");
		}
		try (McpSession admin = McpSession.openAs(this.port, "alice", PASSWORD)) {
			assertThat(admin.succeed("transfer", Map.of("to", "carol", "amount", 5000)))
				.isEqualTo("sent 5000 to carol");
		}
		assertThat(this.tools.runs()).containsExactly("transfer 500", "transfer 5000");
	}

	@Test
	void aCallTheRulesRefuseNeverReachesAnApprover() {
		ApprovalApi approver = new ApprovalApi(this.port, "alice", PASSWORD);
		try (McpSession clerk = McpSession.openAs(this.port, "bob", PASSWORD)) {
			assertThat(clerk.fail("delete_file", Map.of("path", "tmp/../etc/passwd")))
				.isEqualTo("Call of tool 'delete_file' is forbidden: Files may be deleted under tmp/ only. Do not "
						+ "retry this call.");
			assertThat(clerk.fail("delete_file", Map.of("path", "T(java.lang.Runtime).getRuntime().exec('x')")))
				.as("an argument is data, never an expression")
				.endsWith("Files may be deleted under tmp/ only. Do not retry this call.");
		}
		assertThat(approver.pending()).isEmpty();
		assertThat(this.tools.runs()).isEmpty();
	}

	@Test
	void aToolARuleOverTheCallerRefusesIsLeftOutOfItsToolsList() {
		try (McpSession anonymous = McpSession.open(this.port);
				McpSession clerk = McpSession.openAs(this.port, "bob", PASSWORD);
				McpSession auditor = McpSession.openAs(this.port, "dora", PASSWORD)) {
			assertThat(anonymous.toolNames()).containsExactlyInAnyOrder("transfer", "delete_file");
			assertThat(clerk.toolNames()).containsExactlyInAnyOrder("transfer", "delete_file");
			assertThat(auditor.toolNames()).containsExactlyInAnyOrder("transfer", "delete_file", "read_audit_log");
			assertThat(clerk.fail("read_audit_log", Map.of()))
				.isEqualTo("Call of tool 'read_audit_log' is forbidden: Only auditors read the audit log. Do not retry "
						+ "this call.");
			assertThat(auditor.succeed("read_audit_log", Map.of())).isEqualTo("3 entries");
		}
	}

	private long timerCount(String tool, String outcome) {
		return this.meterRegistry.find("agent.tool.call")
			.tag("agent.tool.name", tool)
			.tag("agent.tool.outcome", outcome)
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	/**
	 * An MCP server of bank tools whose endpoint authenticates with HTTP Basic: alice is
	 * an admin and approves, bob is a clerk, dora an auditor.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class BankApplication {

		@Bean
		BankTools bankTools() {
			return new BankTools();
		}

		@Bean
		SecurityFilterChain mcpSecurityFilterChain(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf(AbstractHttpConfigurer::disable)
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
			String password = encoder.encode(PASSWORD);
			return new InMemoryUserDetailsManager(
					User.withUsername("alice").password(password).authorities("ROLE_ADMIN", "ROLE_APPROVER").build(),
					User.withUsername("bob").password(password).authorities("ROLE_CLERK").build(),
					User.withUsername("dora").password(password).authorities("ROLE_AUDITOR").build());
		}

	}

	public static class BankTools {

		private final List<String> runs = new CopyOnWriteArrayList<>();

		public List<String> runs() {
			return this.runs;
		}

		@AgentTool(description = "Transfers money", safety = SafetyLevel.SAFE)
		public String transfer(String to, long amount) {
			this.runs.add("transfer " + amount);
			return "sent " + amount + " to " + to;
		}

		@AgentTool(description = "Deletes a file", safety = SafetyLevel.DANGEROUS)
		public String deleteFile(String path) {
			this.runs.add("delete_file " + path);
			return "deleted " + path;
		}

		@AgentTool(description = "Reads the audit log", safety = SafetyLevel.SAFE, readOnly = true)
		public String readAuditLog() {
			this.runs.add("read_audit_log");
			return "3 entries";
		}

	}

}
