package dev.agentmiddleware.it;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.Map;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MCP sessions bound to the principal that started them, in the hardened transport over
 * real HTTP. The transport reads the caller from the servlet request
 * ({@code getUserPrincipal()}), whichever authentication set it; here a test filter sets
 * it from a header, so that the same endpoint serves authenticated and anonymous requests
 * side by side. The session id of another principal's session is answered exactly like an
 * unknown one, so the session's state (its todo list, session-scoped cache entries and
 * approval grants, all keyed by session id) stays with its owner.
 */
// The todo tools are published over MCP only when asked, and this test uses them as a
// session's own state
@SpringBootTest(classes = FreshMcpApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.todo.mcp.enabled=true")
@Import(McpSessionOwnerIntegrationTests.PrincipalFromHeader.class)
class McpSessionOwnerIntegrationTests {

	private static final String USER_HEADER = "X-Test-User";

	private static final String WRITE_TODOS = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"write_todos\",\"arguments\":{\"todos\":[{\"id\":\"1\",\"text\":\"Alice's secret plan\","
			+ "\"status\":\"pending\"}]}}}";

	private static final String READ_TODOS = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"read_todos\",\"arguments\":{}}}";

	@LocalServerPort
	int port;

	private RawMcpHttp mcp() {
		return new RawMcpHttp(this.port);
	}

	@Test
	void anotherPrincipalOrAnAnonymousClientPresentingTheSessionIdIsAnsweredAsForAnUnknownSession() throws Exception {
		String session = initialize("alice");
		HttpResponse<String> unknown = post("bob", "no-such-session", READ_TODOS);
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(unknown).get("code").asInt()).isEqualTo(-32001);

		for (String intruder : new String[] { "bob", null }) {
			HttpResponse<String> post = post(intruder, session, READ_TODOS);
			assertThat(post.statusCode()).as("POST by %s", intruder).isEqualTo(404);
			assertThat(post.body()).as("POST by %s", intruder).isEqualTo(unknown.body());
			HttpResponse<String> get = send("GET", intruder, session, HttpRequest.BodyPublishers.noBody());
			assertThat(get.statusCode()).as("GET by %s", intruder).isEqualTo(404);
			assertThat(get.body()).as("GET by %s", intruder).isEqualTo(unknown.body());
			HttpResponse<String> delete = send("DELETE", intruder, session, HttpRequest.BodyPublishers.noBody());
			assertThat(delete.statusCode()).as("DELETE by %s", intruder).isEqualTo(404);
			assertThat(delete.body()).as("DELETE by %s", intruder).isEqualTo(unknown.body());
		}

		// Nothing the intruders did ended or touched the owner's session
		assertThat(post("alice", session, READ_TODOS).statusCode()).isEqualTo(200);
		assertThat(send("DELETE", "alice", session, HttpRequest.BodyPublishers.noBody()).statusCode()).isEqualTo(200);
	}

	@Test
	void theSessionsTodoListStaysWithItsOwner() throws Exception {
		String alices = initialize("alice");
		assertThat(post("alice", alices, WRITE_TODOS).body()).doesNotContain("\"isError\":true");

		assertThat(post("bob", alices, READ_TODOS).statusCode()).isEqualTo(404);
		String bobs = initialize("bob");
		assertThat(post("bob", bobs, READ_TODOS).body()).doesNotContain("secret plan");

		assertThat(post("alice", alices, READ_TODOS).body()).contains("Alice's secret plan");
	}

	@Test
	void aSessionStartedAnonymouslyBelongsToNoOneInParticular() throws Exception {
		String session = initialize(null);
		assertThat(post(null, session, READ_TODOS).statusCode()).isEqualTo(200);
		assertThat(post("carol", session, READ_TODOS).statusCode()).isEqualTo(200);
	}

	private String initialize(String user) throws IOException, InterruptedException {
		HttpResponse<String> response = post(user, null, RawMcpHttp.INITIALIZE);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private HttpResponse<String> post(String user, String session, String body)
			throws IOException, InterruptedException {
		return send("POST", user, session, HttpRequest.BodyPublishers.ofString(body));
	}

	private HttpResponse<String> send(String method, String user, String session, HttpRequest.BodyPublisher body)
			throws IOException, InterruptedException {
		Map<String, String> headers = (session != null) ? mcp().sessionHeaders(session) : RawMcpHttp.jsonHeaders();
		if ("GET".equals(method)) {
			headers.put("Accept", "text/event-stream");
		}
		if (user != null) {
			headers.put(USER_HEADER, user);
		}
		return mcp().send(method, headers, body);
	}

	/**
	 * Authenticates a request as the user its {@code X-Test-User} header names; without
	 * it, the request is anonymous.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class PrincipalFromHeader {

		@Bean
		FilterRegistrationBean<Filter> principalFromHeader() {
			Filter filter = (request, response, chain) -> {
				String user = ((HttpServletRequest) request).getHeader(USER_HEADER);
				if (user == null) {
					chain.doFilter(request, response);
					return;
				}
				Principal principal = () -> user;
				chain.doFilter(new HttpServletRequestWrapper((HttpServletRequest) request) {
					@Override
					public Principal getUserPrincipal() {
						return principal;
					}
				}, response);
			};
			return new FilterRegistrationBean<>(filter);
		}

	}

}
