package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Who may approve when the application is an OAuth2 resource server
 * ({@code spring.security.oauth2.resourceserver.jwt.*}), where Spring Boot defines no
 * user: an application without a {@code UserDetailsService} of its own, whose approvers
 * are Spring Boot's {@code spring.security.user.*} (HTTP Basic) and the holders of a
 * bearer token with the authority {@code agent.middleware.approval.web.token-authority};
 * and who may read the audit trail there: the holders of a bearer token with
 * {@code agent.middleware.audit.web.token-authority}. Real JWTs signed with a key pair
 * made for the run, real HTTP.
 */
@SpringBootTest(classes = ApproversUnderResourceServerIntegrationTests.LaunchApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=approvers-under-resource-server-it", "agent.middleware.todo.enabled=false",
				"spring.security.user.name=root-approver",
				"spring.security.user.password=" + ApproversUnderResourceServerIntegrationTests.PASSWORD,
				"spring.security.user.roles=APPROVER", "agent.middleware.approval.web.token-authority=SCOPE_approvals",
				"agent.middleware.audit.web.token-authority=SCOPE_audit" })
class ApproversUnderResourceServerIntegrationTests {

	static final String PASSWORD = "root-approvers-secret";

	private static final TestTokenIssuer issuer = TestTokenIssuer.start();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void resourceServer(DynamicPropertyRegistry registry) {
		registry.add("spring.security.oauth2.resourceserver.jwt.jwk-set-uri", issuer::jwkSetUri);
		registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri", issuer::issuer);
	}

	@AfterAll
	static void stopIssuer() {
		issuer.close();
	}

	@Test
	void springSecurityUserLogsInThoughSpringBootDefinesNoUserBesideAResourceServer() {
		assertThat(new ApprovalApi(this.port, "root-approver", PASSWORD).get("").status()).isEqualTo(200);
		assertThat(new ApprovalApi(this.port, "root-approver", "wrong").get("").status()).isEqualTo(401);
	}

	@Test
	void anAnonymousBrowserIsAskedToLogIn() throws Exception {
		HttpRequest console = HttpRequest.newBuilder(URI.create(approvals() + "/console"))
			.header("Accept", "text/html")
			.GET()
			.build();
		HttpResponse<String> response = HttpClient.newHttpClient().send(console, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().allValues("WWW-Authenticate"))
			.anySatisfy((challenge) -> assertThat(challenge).startsWith("Basic "));
	}

	@Test
	void aTokenWithTheApproverAuthorityApprovesAnotherPrincipalsCall() throws Exception {
		try (McpSession alice = McpSession.open(this.port, mcpToken("alice"))) {
			CompletableFuture<CallToolResult> call = alice.callAsync("launch", Map.of("target", "moon"));
			ApprovalApi bob = ApprovalApi.withBearerToken(this.port, approvalToken("bob", "approvals"));
			JsonNode request = bob.awaitPending((pending) -> pending.get("tool").asString().equals("launch"));
			assertThat(request.get("principal").asString()).isEqualTo("alice");
			assertThat(bob.approve(request.get("id").asString()).status()).isEqualTo(200);
			assertThat(McpSession.text(call.get(30, TimeUnit.SECONDS))).isEqualTo("Launched moon");
			assertThat(bob.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(request.get("id").asString());
				assertThat(record.get("decidedBy").asString()).isEqualTo("bob");
			});
		}
	}

	@Test
	void aTokenWithoutTheApproverAuthorityIsForbidden() {
		ApprovalApi.Response response = ApprovalApi.withBearerToken(this.port, approvalToken("mallory", "mcp.tools"))
			.get("");
		assertThat(response.status()).isEqualTo(403);
	}

	@Test
	void theCallerCannotApproveItsOwnCallWithItsToken() throws Exception {
		String approverAndCaller = issuer.sign(issuer.claims("carol", resource(), "mcp.tools approvals"));
		try (McpSession carol = McpSession.open(this.port, approverAndCaller)) {
			CompletableFuture<CallToolResult> call = carol.callAsync("launch", Map.of("target", "mars"));
			ApprovalApi asCarol = ApprovalApi.withBearerToken(this.port, approvalToken("carol", "approvals"));
			JsonNode request = asCarol
				.awaitPending((pending) -> "mars".equals(pending.get("arguments").path("target").asString(null)));
			ApprovalApi.Response approve = asCarol.approve(request.get("id").asString());
			assertThat(approve.status()).isEqualTo(403);
			assertThat(approve.json().get("rule").asString()).isEqualTo("no-self-approval");
			assertThat(asCarol.deny(request.get("id").asString(), "changed my mind").status()).isEqualTo(200);
			assertThat(call.get(30, TimeUnit.SECONDS).isError()).isTrue();
		}
	}

	@Test
	void anApprovalTokenWithoutAnExpiryOrASubjectIsRefused() {
		String withoutExpiry = issuer.sign(issuer.claims("bob", approvals(), "approvals").expirationTime(null));
		String withoutSubject = issuer.sign(issuer.claims("bob", approvals(), "approvals").subject(null));
		assertThat(ApprovalApi.withBearerToken(this.port, withoutExpiry).get("").status()).isEqualTo(401);
		assertThat(ApprovalApi.withBearerToken(this.port, withoutSubject).get("").status()).isEqualTo(401);
	}

	@Test
	void aTokenWithTheAuditAuthorityReadsTheAuditTrailAndItsExport() throws Exception {
		try (McpSession alice = McpSession.open(this.port, mcpToken("alice"))) {
			CompletableFuture<CallToolResult> call = alice.callAsync("launch", Map.of("target", "venus"));
			ApprovalApi bob = ApprovalApi.withBearerToken(this.port, approvalToken("bob", "approvals"));
			JsonNode request = bob
				.awaitPending((pending) -> "venus".equals(pending.get("arguments").path("target").asString(null)));
			assertThat(bob.approve(request.get("id").asString()).status()).isEqualTo(200);
			call.get(30, TimeUnit.SECONDS);
		}
		String auditor = issuer.sign(issuer.claims("siem", audit(), "audit"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			HttpResponse<String> page = audit("?tool=launch", auditor);
			assertThat(page.statusCode()).isEqualTo(200);
			assertThat(page.body()).contains("\"principal\":\"alice\"").contains("\"tool\":\"launch\"");
		});
		HttpResponse<String> export = audit("/export?tool=launch", auditor);
		assertThat(export.statusCode()).isEqualTo(200);
		assertThat(export.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/x-ndjson"));
	}

	@Test
	void theAuditTrailRefusesTokensWithoutItsAuthorityOrWithoutAnExpiry() throws Exception {
		assertThat(audit("", approvalToken("bob", "approvals")).statusCode()).isEqualTo(403);
		assertThat(audit("", mcpToken("alice")).statusCode()).isEqualTo(403);
		String withoutExpiry = issuer.sign(issuer.claims("siem", audit(), "audit").expirationTime(null));
		assertThat(audit("", withoutExpiry).statusCode()).isEqualTo(401);
		assertThat(audit("", null).statusCode()).isEqualTo(401);
	}

	private HttpResponse<String> audit(String query, @Nullable String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(audit() + query))
			.timeout(Duration.ofSeconds(10))
			.GET();
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private String audit() {
		return "http://localhost:" + this.port + "/agent/audit";
	}

	private String mcpToken(String subject) {
		return issuer.sign(issuer.claims(subject, resource(), "mcp.tools"));
	}

	private String approvalToken(String subject, String scope) {
		return issuer.sign(issuer.claims(subject, approvals(), scope));
	}

	private String resource() {
		return "http://localhost:" + this.port + "/mcp";
	}

	private String approvals() {
		return "http://localhost:" + this.port + "/agent/approvals";
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class LaunchApplication {

		@Bean
		LaunchTools launchTools() {
			return new LaunchTools();
		}

	}

	public static class LaunchTools {

		@AgentTool(description = "Launches a rocket", safety = SafetyLevel.DANGEROUS)
		public String launch(String target) {
			return "Launched " + target;
		}

	}

}
