package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
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
 * The sample with a resource server that knows its issuer's public key only
 * ({@code spring.security.oauth2.resourceserver.jwt.public-key-location}, with which
 * Spring Boot checks no issuer) and {@code agent.middleware.mcp.security.issuer}: tokens
 * are real JWTs signed with a key pair made for the run, sent over real HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class McpPublicKeyIntegrationTests {

	private static final TestTokenIssuer issuer = TestTokenIssuer.start();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
			+ "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

	@TempDir
	static Path directory;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@DynamicPropertySource
	static void resourceServer(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> directory.resolve("workspace").toString());
		registry.add("spring.security.oauth2.resourceserver.jwt.public-key-location",
				() -> issuer.writePublicKey(directory).toUri().toString());
		registry.add("agent.middleware.mcp.security.issuer", issuer::issuer);
	}

	@AfterAll
	static void stopIssuer() {
		issuer.close();
	}

	@Test
	void aTokenOfTheConfiguredIssuerIsAccepted() throws Exception {
		HttpResponse<String> response = initialize(issuer.sign(issuer.claims("alice", resource(), "mcp.tools")));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
	}

	@Test
	void aTokenOfAnotherIssuerIsRefusedThoughItsSignatureIsValid() throws Exception {
		String token = issuer.sign(issuer.claims("alice", resource(), "mcp.tools").issuer("https://other.example"));
		assertRefused(token, "The token was not issued by the expected issuer");
	}

	@Test
	void aTokenWithoutAnIssuerIsRefused() throws Exception {
		assertRefused(issuer.sign(issuer.claims("alice", resource(), "mcp.tools").issuer(null)),
				"The token was not issued by the expected issuer");
	}

	@Test
	void aTokenWithoutAnExpiryIsRefused() throws Exception {
		assertRefused(issuer.sign(issuer.claims("alice", resource(), "mcp.tools").expirationTime(null)),
				"The token has no expiry ('exp')");
	}

	@Test
	void theMetadataNamesTheIssuerAsTheAuthorizationServer() throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/.well-known/oauth-protected-resource/mcp"))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode metadata = JSON.readTree(response.body());
		assertThat(metadata.get("authorization_servers").valueStream().map(JsonNode::asString))
			.containsExactly(issuer.issuer());
	}

	private void assertRefused(String token, String description) throws Exception {
		HttpResponse<String> response = initialize(token);
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"")
			.contains("error_description=\"" + description);
	}

	private HttpResponse<String> initialize(String token) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create(resource()))
			.header("Accept", "application/json, text/event-stream")
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private String resource() {
		return "http://localhost:" + this.port + "/mcp";
	}

}
