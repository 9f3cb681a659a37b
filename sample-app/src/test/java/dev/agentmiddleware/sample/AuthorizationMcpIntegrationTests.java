package dev.agentmiddleware.sample;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.approval.web.ApprovalController;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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
 * Per-tool authorities and per-caller tool lists over real HTTP: an application whose MCP
 * endpoint authenticates with HTTP Basic (Spring Security, in-memory users), called with
 * the MCP Java SDK's client as different users and anonymously, and the approval REST
 * API, where nobody approves their own call.
 */
@SpringBootTest(classes = AuthorizationMcpIntegrationTests.RecordsApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=authorization-it", "agent.middleware.todo.enabled=false" })
class AuthorizationMcpIntegrationTests {

	static final String PASSWORD = "secret-of-every-test-user";

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	RecordTools tools;

	@BeforeEach
	void resetRuns() {
		this.tools.resetRuns();
	}

	@Test
	void toolsListShowsEachCallerOnlyTheToolsItMayCall() {
		try (McpSession anonymous = McpSession.open(this.port);
				McpSession reader = McpSession.openAs(this.port, "bob", PASSWORD);
				McpSession writer = McpSession.openAs(this.port, "alice", PASSWORD)) {
			assertThat(anonymous.toolNames()).containsExactlyInAnyOrder("read_record");
			assertThat(reader.toolNames()).containsExactlyInAnyOrder("read_record", "list_records");
			assertThat(writer.toolNames()).containsExactlyInAnyOrder("read_record", "list_records", "erase_record",
					"purge_records");
		}
	}

	@Test
	void aCallWithoutTheAuthorityIsAnErrorResultCountedAsForbiddenAndTheToolDoesNotRun() {
		try (McpSession reader = McpSession.openAs(this.port, "bob", PASSWORD)) {
			long before = timerCount("erase_record", "forbidden");
			assertThat(reader.fail("erase_record", Map.of("id", "r-1")))
				.isEqualTo("Tool 'erase_record' requires authority SCOPE_records.write, which the caller does not "
						+ "have. Do not retry this call.");
			assertThat(timerCount("erase_record", "forbidden")).isEqualTo(before + 1);
			assertThat(reader.succeed("list_records", Map.of())).isEqualTo("r-1, r-2");
		}
		assertThat(this.tools.runs()).as("only list_records ran").isEqualTo(1);
	}

	@Test
	void aCallerWithTheAuthorityRunsTheTool() {
		try (McpSession writer = McpSession.openAs(this.port, "alice", PASSWORD)) {
			assertThat(writer.succeed("erase_record", Map.of("id", "r-2"))).isEqualTo("erased r-2");
		}
		assertThat(timerCount("erase_record", "succeeded")).isPositive();
	}

	@Test
	void anAnonymousCallerIsForbiddenEveryToolThatRequiresAuthorities() {
		try (McpSession anonymous = McpSession.open(this.port)) {
			assertThat(anonymous.fail("list_records", Map.of()))
				.isEqualTo("Tool 'list_records' requires authority SCOPE_records.read, and the caller is not "
						+ "authenticated. Do not retry this call.");
			assertThat(anonymous.succeed("read_record", Map.of("id", "r-1"))).isEqualTo("record r-1");
		}
	}

	@Test
	void aForbiddenCallIsRefusedBeforeAnyoneIsAskedToApproveIt() {
		ApprovalApi approver = new ApprovalApi(this.port, "carol", PASSWORD);
		try (McpSession reader = McpSession.openAs(this.port, "bob", PASSWORD)) {
			assertThat(reader.fail("purge_records", Map.of())).startsWith("Tool 'purge_records' requires authority");
		}
		assertThat(approver.pending()).isEmpty();
		assertThat(timerCount("purge_records", "forbidden")).isPositive();
	}

	@Test
	void theCallerMayNotApproveItsOwnCallButAnotherApproverMay() throws Exception {
		ApprovalApi self = new ApprovalApi(this.port, "alice", PASSWORD);
		ApprovalApi other = new ApprovalApi(this.port, "carol", PASSWORD);
		try (McpSession writer = McpSession.openAs(this.port, "alice", PASSWORD)) {
			CompletableFuture<CallToolResult> call = writer.callAsync("purge_records", Map.of());
			JsonNode request = self.awaitPending((pending) -> pending.get("tool").asString().equals("purge_records"));
			assertThat(request.get("principal").asString()).as("who asked").isEqualTo("alice");
			String id = request.get("id").asString();

			ApprovalApi.Response refused = self.approve(id);
			assertThat(refused.status()).isEqualTo(403);
			assertThat(refused.json().get("rule").asString()).isEqualTo(ApprovalController.NO_SELF_APPROVAL);
			assertThat(refused.json().get("error").asString()).contains("nobody approves their own call")
				.contains(ApprovalController.NO_SELF_APPROVAL);
			assertThat(self.approveForSession(id).status()).isEqualTo(403);
			assertThat(self.pending()).as("still waiting for another approver").hasSize(1);

			assertThat(other.approve(id).status()).isEqualTo(200);
			assertThat(McpSession.text(call.get(20, TimeUnit.SECONDS))).isEqualTo("purged 2 records");
			assertThat(other.audit()).first().satisfies((entry) -> {
				assertThat(entry.get("principal").asString()).isEqualTo("alice");
				assertThat(entry.get("decidedBy").asString()).isEqualTo("carol");
			});
		}
	}

	@Test
	void theCallerMayDenyItsOwnCall() throws Exception {
		ApprovalApi self = new ApprovalApi(this.port, "alice", PASSWORD);
		try (McpSession writer = McpSession.openAs(this.port, "alice", PASSWORD)) {
			CompletableFuture<CallToolResult> call = writer.callAsync("purge_records", Map.of());
			JsonNode request = self.awaitPending((pending) -> pending.get("tool").asString().equals("purge_records"));
			assertThat(self.deny(request.get("id").asString(), "changed my mind").status()).isEqualTo(200);
			CallToolResult result = call.get(20, TimeUnit.SECONDS);
			assertThat(result.isError()).isTrue();
			assertThat(McpSession.text(result)).contains("changed my mind");
		}
		assertThat(this.tools.runs()).isZero();
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
	 * An MCP server of record tools whose endpoint authenticates with HTTP Basic: alice
	 * may read and write records and approve, bob may read, carol only approves.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class RecordsApplication {

		@Bean
		RecordTools recordTools() {
			return new RecordTools();
		}

		@Bean
		SecurityFilterChain mcpSecurityFilterChain(HttpSecurity http) throws Exception {
			// Authenticated when credentials come, anonymous otherwise: the tools decide
			// what each caller may do
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
					User.withUsername("alice")
						.password(password)
						.authorities("SCOPE_records.read", "SCOPE_records.write", "ROLE_APPROVER")
						.build(),
					User.withUsername("bob").password(password).authorities("SCOPE_records.read").build(),
					User.withUsername("carol").password(password).authorities("ROLE_APPROVER").build());
		}

	}

	public static class RecordTools {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		public void resetRuns() {
			this.runs.set(0);
		}

		@AgentTool(description = "Reads one record", safety = SafetyLevel.SAFE, readOnly = true)
		public String readRecord(String id) {
			this.runs.incrementAndGet();
			return "record " + id;
		}

		@AgentTool(description = "Lists the records", safety = SafetyLevel.SAFE, readOnly = true,
				authorities = "SCOPE_records.read")
		public String listRecords() {
			this.runs.incrementAndGet();
			return "r-1, r-2";
		}

		@AgentTool(description = "Erases one record", safety = SafetyLevel.MODERATE,
				authorities = "SCOPE_records.write")
		public String eraseRecord(String id) {
			this.runs.incrementAndGet();
			return "erased " + id;
		}

		@AgentTool(description = "Erases every record", safety = SafetyLevel.DANGEROUS,
				authorities = "SCOPE_records.write")
		public String purgeRecords() {
			this.runs.incrementAndGet();
			return "purged 2 records";
		}

	}

}
