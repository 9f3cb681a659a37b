package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample with a resource server configured (Spring Boot's own
 * {@code spring.security.oauth2.resourceserver.jwt.*} properties, a JWK set served over
 * loopback HTTP by a test issuer): the MCP endpoint is an OAuth 2.1 resource server.
 * Tokens are real JWTs signed with a key pair made for the run; clients are the MCP Java
 * SDK client and raw HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(McpBearerTokenIntegrationTests.RecordingObserverConfiguration.class)
class McpBearerTokenIntegrationTests {

	private static final TestTokenIssuer issuer = TestTokenIssuer.start();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
			+ "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

	private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	RecordingObserver observer;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void resourceServer(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
		registry.add("spring.security.oauth2.resourceserver.jwt.jwk-set-uri", issuer::jwkSetUri);
		registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri", issuer::issuer);
		registry.add("agent.middleware.mcp.security.scopes", () -> "mcp.tools,mcp.admin");
	}

	@AfterAll
	static void stopIssuer() {
		issuer.close();
	}

	@Test
	void requestWithoutATokenGets401NamingTheMetadata() throws Exception {
		HttpResponse<String> response = send(post(null, null, INITIALIZE));
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().allValues("WWW-Authenticate"))
			.containsExactly("Bearer resource_metadata=\"" + base() + "/.well-known/oauth-protected-resource/mcp\"");
	}

	@Test
	void tokenSignedWithAnotherKeyIsRefused() throws Exception {
		assertRefusedAsInvalid(issuer.forged("alice", resource()));
	}

	@Test
	void expiredTokenIsRefused() throws Exception {
		assertRefusedAsInvalid(issuer.token("alice", resource(), Instant.now().minusSeconds(600), "mcp.tools"));
	}

	@Test
	void tokenWithoutAnExpiryIsRefused() throws Exception {
		HttpResponse<String> response = assertRefusedAsInvalid(
				issuer.sign(issuer.claims("alice", resource(), "mcp.tools").expirationTime(null)));
		assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow())
			.contains("error_description=\"The token has no expiry ('exp')");
	}

	@Test
	void tokenWithoutASubjectIsRefusedAndCannotContinueAnotherPrincipalsSession() throws Exception {
		String withoutSubject = issuer.sign(issuer.claims("alice", resource(), "mcp.tools").subject(null));
		HttpResponse<String> refused = assertRefusedAsInvalid(withoutSubject);
		assertThat(refused.headers().firstValue("WWW-Authenticate").orElseThrow())
			.contains("error_description=\"The token names no principal: it has no 'sub' claim");

		String session = initialize(token("alice"));
		HttpResponse<String> onAlicesSession = send(post(withoutSubject, session, TOOLS_LIST));
		assertThat(onAlicesSession.statusCode()).isEqualTo(401);
		assertThat(onAlicesSession.body()).doesNotContain("get_weather");
		assertThat(send(post(token("alice"), session, TOOLS_LIST)).body()).contains("get_weather");
	}

	@Test
	void tokenIssuedForAnotherResourceIsRefused() throws Exception {
		HttpResponse<String> response = assertRefusedAsInvalid(
				issuer.token("alice", "https://other.example/mcp", Instant.now().plusSeconds(600), "mcp.tools"));
		assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow())
			.contains("The token's audience does not include this resource");
	}

	@Test
	void publishesTheProtectedResourceMetadataToAnyoneAtBothWellKnownPaths() throws Exception {
		for (String path : new String[] { "/.well-known/oauth-protected-resource/mcp",
				"/.well-known/oauth-protected-resource" }) {
			HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base() + path)).GET().build());
			assertThat(response.statusCode()).as(path).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
			JsonNode metadata = JSON.readTree(response.body());
			assertThat(metadata.get("resource").asString()).isEqualTo(resource());
			assertThat(metadata.get("authorization_servers").valueStream().map(JsonNode::asString))
				.containsExactly(issuer.issuer());
			assertThat(metadata.get("scopes_supported").valueStream().map(JsonNode::asString))
				.containsExactly("mcp.tools", "mcp.admin");
			assertThat(metadata.get("bearer_methods_supported").valueStream().map(JsonNode::asString))
				.containsExactly("header");
		}
	}

	@Test
	void authenticatedCallerUsesTheToolsAndTheApproverSeesWhoAsked() throws Exception {
		Files.writeString(workspace.resolve("alice-asks.txt"), "keep me");
		ApprovalApi approver = new ApprovalApi(this.port, "approver", "approve-me");
		try (McpSession session = McpSession.open(this.port, token("alice"))) {
			assertThat(session.toolNames()).contains("get_weather", "delete_file");
			assertThat(session.succeed("get_weather", Map.of("city", "Token Town"))).contains("Token Town");
			assertThat(this.observer.principalNames("get_weather")).as("ToolInvocation.principalName()")
				.contains("alice")
				.doesNotContain("<anonymous>");

			CompletableFuture<CallToolResult> call = session.callAsync("delete_file", Map.of("path", "alice-asks.txt"));
			JsonNode request = approver.awaitPendingFor("delete_file", "alice-asks.txt");
			assertThat(request.get("principal").asString()).isEqualTo("alice");
			assertThat(approver.deny(request.get("id").asString(), "not today").status()).isEqualTo(200);
			assertThat(call.get(30, TimeUnit.SECONDS).isError()).isTrue();
			assertThat(approver.audit()).anySatisfy((record) -> {
				assertThat(record.get("requestId").asString()).isEqualTo(request.get("id").asString());
				assertThat(record.get("principal").asString()).isEqualTo("alice");
				assertThat(record.get("decidedBy").asString()).isEqualTo("approver");
			});
		}
		assertThat(workspace.resolve("alice-asks.txt")).exists();
	}

	@Test
	void aSessionIsUnknownToEveryoneButThePrincipalThatStartedIt() throws Exception {
		String session = initialize(token("alice"));
		HttpResponse<String> unknown = send(post(token("bob"), "not-a-session-id", TOOLS_LIST));
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(unknown.body()).contains("-32001");

		HttpResponse<String> asBob = send(post(token("bob"), session, TOOLS_LIST));
		assertThat(asBob.statusCode()).isEqualTo(404);
		assertThat(asBob.body()).isEqualTo(unknown.body());

		HttpResponse<String> anonymous = send(post(null, session, TOOLS_LIST));
		assertThat(anonymous.statusCode()).as("no token never reaches the session").isEqualTo(401);

		HttpResponse<String> delete = send(request(token("bob"), session).DELETE().build());
		assertThat(delete.statusCode()).isEqualTo(404);

		HttpResponse<String> asAlice = send(post(token("alice"), session, TOOLS_LIST));
		assertThat(asAlice.statusCode()).as("Bob's attempts left Alice's session alone").isEqualTo(200);
		assertThat(asAlice.body()).contains("get_weather");
	}

	@Test
	void aGrantForTheSessionStaysWithThePrincipalThatStartedIt() throws Exception {
		Path file = workspace.resolve("granted.txt");
		Files.writeString(file, "keep me");
		ApprovalApi approver = new ApprovalApi(this.port, "approver", "approve-me");
		String session = initialize(token("alice"));
		CompletableFuture<HttpResponse<String>> first = CompletableFuture
			.supplyAsync(() -> sendUnchecked(post(token("alice"), session, deleteCall(3, "granted.txt"))), (task) -> {
				Thread caller = new Thread(task, "alice-delete");
				caller.setDaemon(true);
				caller.start();
			});
		JsonNode request = approver.awaitPendingFor("delete_file", "granted.txt");
		assertThat(approver.approveForSession(request.get("id").asString()).status()).isEqualTo(200);
		assertThat(first.get(30, TimeUnit.SECONDS).body()).contains("Deleted granted.txt");

		// Bob holds Alice's session id: the grant is not his to use, the session does not
		// exist for him
		Files.writeString(file, "keep me");
		HttpResponse<String> asBob = send(post(token("bob"), session, deleteCall(4, "granted.txt")));
		assertThat(asBob.statusCode()).isEqualTo(404);
		assertThat(file).exists();

		// Alice's own repeat runs without asking: the grant is still hers
		HttpResponse<String> asAlice = send(post(token("alice"), session, deleteCall(5, "granted.txt")));
		assertThat(asAlice.body()).contains("Deleted granted.txt");
		assertThat(file).doesNotExist();
	}

	@Test
	@RequiresService(TestService.NODE)
	void typeScriptSdkClientSendsItsBearerTokenAndIsRefusedWithoutOne() throws Exception {
		TypeScriptClientIntegrationTests.installClient();
		String output = TypeScriptClientIntegrationTests
			.run(List.of("node", "bearer-client.mjs", resource(), token("ts-user")), 120);
		JsonNode seen = JSON.readTree(output.lines().reduce((first, last) -> last).orElseThrow());
		assertThat(seen.get("withoutToken").get("connected").asBoolean()).isFalse();
		assertThat(seen.get("withoutToken").get("status").asInt()).isEqualTo(401);
		assertThat(seen.get("tools").valueStream().map(JsonNode::asString)).contains("get_weather", "delete_file");
		assertThat(seen.get("weather").get("isError").asBoolean()).isFalse();
		assertThat(seen.get("weather").get("structuredContent").get("city").asString()).isEqualTo("Bearer Town");
	}

	private HttpResponse<String> assertRefusedAsInvalid(String token) throws Exception {
		HttpResponse<String> response = send(post(token, null, INITIALIZE));
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow()).startsWith("Bearer ")
			.contains("error=\"invalid_token\"")
			.contains("resource_metadata=\"" + base() + "/.well-known/oauth-protected-resource/mcp\"");
		return response;
	}

	private String initialize(String token) throws Exception {
		HttpResponse<String> initialized = send(post(token, null, INITIALIZE));
		assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
		return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private static String deleteCall(int id, String path) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"delete_file\","
				+ "\"arguments\":{\"path\":\"" + path + "\"}}}";
	}

	private String token(String subject) {
		return issuer.token(subject, resource(), Instant.now().plusSeconds(600), "mcp.tools");
	}

	private String base() {
		return "http://localhost:" + this.port;
	}

	// Derived from the request, as no agent.middleware.mcp.security.resource is set
	private String resource() {
		return base() + "/mcp";
	}

	private HttpRequest.Builder request(String token, String session) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource()))
			.header("Accept", "application/json, text/event-stream");
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return request;
	}

	private HttpRequest post(String token, String session, String body) {
		return request(token, session).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> sendUnchecked(HttpRequest request) {
		try {
			return send(request);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class RecordingObserverConfiguration {

		@Bean
		RecordingObserver recordingObserver() {
			return new RecordingObserver();
		}

	}

}
