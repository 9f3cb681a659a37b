package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's approval REST API, called over real HTTP as an approver (HTTP Basic or a
 * bearer token) or anonymously.
 */
final class ApprovalApi {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private final String base;

	private final String authorization;

	ApprovalApi(int port, String username, String password) {
		this(port, (username == null) ? null : "Basic "
				+ Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)));
	}

	private ApprovalApi(int port, String authorization) {
		this.base = "http://localhost:" + port + "/agent/approvals";
		this.authorization = authorization;
	}

	static ApprovalApi anonymous(int port) {
		return new ApprovalApi(port, null, null);
	}

	static ApprovalApi withBearerToken(int port, String token) {
		return new ApprovalApi(port, "Bearer " + token);
	}

	Response get(String path) {
		return send(request(path).GET());
	}

	Response console() {
		return send(request("/console").header("Accept", "text/html").GET());
	}

	Response post(String path, Object body) {
		return send(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
	}

	List<JsonNode> pending() {
		Response response = get("");
		assertThat(response.status()).as("GET /agent/approvals: %s", response.body()).isEqualTo(200);
		return List.copyOf(response.json().valueStream().toList());
	}

	/**
	 * Waits until a pending request matches, as the waiting call shows up.
	 */
	JsonNode awaitPending(Predicate<JsonNode> matching) {
		JsonNode[] found = new JsonNode[1];
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
			for (JsonNode request : pending()) {
				if (matching.test(request)) {
					found[0] = request;
					return true;
				}
			}
			return false;
		});
		return found[0];
	}

	JsonNode awaitPendingFor(String tool, String path) {
		return awaitPending((request) -> request.get("tool").asString().equals(tool)
				&& path.equals(request.get("arguments").path("path").asString(null)));
	}

	Response approve(String id) {
		return post("/" + id + "/approve", Map.of());
	}

	Response approveForSession(String id) {
		return post("/" + id + "/approve-for-session", Map.of());
	}

	Response deny(String id, String reason) {
		return post("/" + id + "/deny", Map.of("reason", reason));
	}

	Response approveWithArguments(String id, Map<String, Object> arguments) {
		return post("/" + id + "/approve-with-arguments", Map.of("arguments", arguments));
	}

	List<JsonNode> audit() {
		return List.copyOf(get("/audit").json().valueStream().toList());
	}

	private HttpRequest.Builder request(String path) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(10));
		if (!path.equals("/console")) {
			builder.header("Accept", "application/json");
		}
		if (this.authorization != null) {
			builder.header("Authorization", this.authorization);
		}
		return builder;
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	record Response(int status, String body) {

		JsonNode json() {
			return JSON.readTree(this.body);
		}

	}

}
