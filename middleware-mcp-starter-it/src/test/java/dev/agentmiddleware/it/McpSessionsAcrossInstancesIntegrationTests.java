package dev.agentmiddleware.it;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application on one PostgreSQL schema, each with its own web
 * server, as behind a round-robin load balancer: with a {@code DataSource} on PostgreSQL
 * the MCP sessions are kept in the database
 * ({@code agent.middleware.mcp.sessions.store.type: auto}), so a session started on one
 * instance is served by the other, still bound to its owner, ended everywhere by one
 * {@code DELETE} or by idling past the timeout, and counted against one cap for both,
 * exactly even when both start sessions at the same instant.
 */
@RequiresService(TestService.POSTGRES)
class McpSessionsAcrossInstancesIntegrationTests {

	private static final String USER_HEADER = "X-Test-User";

	private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";

	private static final String CONVERT = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"convert\",\"arguments\":{\"amount\":10}}}";

	private static final String WRITE_TODOS = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"write_todos\",\"arguments\":{\"todos\":[{\"id\":\"1\",\"text\":\"Alice's plan\","
			+ "\"status\":\"pending\"}]}}}";

	private static final String READ_TODOS = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"read_todos\",\"arguments\":{}}}";

	private static TwoInstancesOnPostgres instances;

	private static DataSource dataSource;

	private static ConfigurableApplicationContext instanceA;

	private static ConfigurableApplicationContext instanceB;

	@BeforeAll
	static void startTwoInstancesOnOneDatabase() {
		instances = TwoInstancesOnPostgres.start(
				List.of(FreshMcpApplication.class, McpSessionOwnerIntegrationTests.PrincipalFromHeader.class,
						McpSessionLimitsIntegrationTests.TestClock.class),
				"agent.middleware.mcp.transport.max-sessions=3", "agent.middleware.todo.mcp.enabled=true");
		dataSource = instances.dataSource();
		instanceA = instances.a();
		instanceB = instances.b();
	}

	@AfterAll
	static void stopInstances() {
		if (instances != null) {
			instances.close();
		}
	}

	@BeforeEach
	void noSessionsYet() {
		new JdbcTemplate(dataSource).update("DELETE FROM agent_mcp_session");
	}

	@Test
	void aSessionStartedOnOneInstanceListsAndCallsToolsOnTheOther() throws Exception {
		String session = initialize(instanceA, "alice");

		HttpResponse<String> list = post(instanceB, "alice", session, TOOLS_LIST);
		assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
		assertThat(list.body()).contains("\"name\":\"convert\"").contains("\"name\":\"forecast\"");

		HttpResponse<String> call = post(instanceB, "alice", session, CONVERT);
		assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
		assertThat(call.body()).contains("\"result\"").doesNotContain("\"isError\":true");

		// And back on the instance that started it
		assertThat(post(instanceA, "alice", session, CONVERT).statusCode()).isEqualTo(200);
	}

	@Test
	void theSessionsStateIsKeyedByTheSameSessionIdOnBothInstances() throws Exception {
		// The SDK's copy of the session on B has an id of its own; the tools see the id
		// the client knows
		String session = initialize(instanceA, "alice");
		HttpResponse<String> write = post(instanceA, "alice", session, WRITE_TODOS);
		assertThat(write.body()).contains("\"result\"").doesNotContain("\"isError\":true");

		assertThat(post(instanceB, "alice", session, READ_TODOS).body()).contains("Alice's plan");
		String others = initialize(instanceB, "alice");
		assertThat(post(instanceB, "alice", others, READ_TODOS).body()).doesNotContain("Alice's plan");
	}

	@Test
	void anotherPrincipalPresentingTheSessionIdOnTheOtherInstanceIsAnsweredAsForAnUnknownSession() throws Exception {
		String session = initialize(instanceA, "alice");
		HttpResponse<String> unknown = post(instanceB, "bob", "no-such-session", TOOLS_LIST);
		assertThat(unknown.statusCode()).isEqualTo(404);

		HttpResponse<String> intruder = post(instanceB, "bob", session, TOOLS_LIST);
		assertThat(intruder.statusCode()).isEqualTo(404);
		assertThat(intruder.body()).isEqualTo(unknown.body());
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);
	}

	@Test
	void aSessionDeletedOnOneInstanceIsUnknownOnTheOther() throws Exception {
		String session = initialize(instanceA, "alice");
		assertThat(post(instanceA, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);

		HttpResponse<String> delete = send(instanceB, "DELETE", "alice", session, HttpRequest.BodyPublishers.noBody());
		assertThat(delete.statusCode()).isEqualTo(200);

		// At once on the instance that ended it; on the other once it heard the row's
		// deletion (PostgreSQL NOTIFY, typically milliseconds), and from then on
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(404);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> post(instanceA, "alice", session, TOOLS_LIST).statusCode() == 404);
		HttpResponse<String> afterDelete = post(instanceA, "alice", session, TOOLS_LIST);
		assertThat(afterDelete.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(afterDelete).get("code").asInt()).isEqualTo(-32001);
	}

	@Test
	void aSessionIdleLongerThanTheTimeoutOnEveryInstanceIsGoneEverywhere() throws Exception {
		String session = initialize(instanceA, "alice");
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);

		// Used on B 29 minutes later: still alive for A, whose own copy was last used 29
		// minutes before
		advanceClocks(Duration.ofMinutes(29));
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);
		advanceClocks(Duration.ofMinutes(29));
		assertThat(post(instanceA, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(200);

		// Idle for longer than the 30-minute timeout: expired on the instance that sees
		// it, and so on the other
		advanceClocks(Duration.ofMinutes(31));
		assertThat(post(instanceB, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(404);
		assertThat(post(instanceA, "alice", session, TOOLS_LIST).statusCode()).isEqualTo(404);
		assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM agent_mcp_session", Integer.class))
			.isZero();
	}

	@Test
	void theSessionLimitCountsTheSessionsOfBothInstances() throws Exception {
		initialize(instanceA, "alice");
		initialize(instanceB, "bob");
		initialize(instanceA, "carol");

		HttpResponse<String> refused = post(instanceB, "dave", null, RawMcpHttp.INITIALIZE);
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
		assertThat(refused.body()).contains("limit of 3 live sessions");
		assertThat(post(instanceA, "dave", null, RawMcpHttp.INITIALIZE).statusCode()).isEqualTo(503);
	}

	@Test
	void simultaneousInitializesOnBothInstancesStartExactlyTheCapAndAreAnswered503Beyond() throws Exception {
		int clients = 12;
		ExecutorService threads = Executors.newFixedThreadPool(clients);
		try {
			for (int round = 1; round <= 10; round++) {
				CountDownLatch go = new CountDownLatch(1);
				Map<String, Future<HttpResponse<String>>> responses = new LinkedHashMap<>();
				for (int i = 0; i < clients; i++) {
					ConfigurableApplicationContext instance = (i % 2 == 0) ? instanceA : instanceB;
					String user = "user-" + i;
					responses.put(user, threads.submit(() -> {
						go.await();
						return post(instance, user, null, RawMcpHttp.INITIALIZE);
					}));
				}
				go.countDown();
				Map<String, String> started = new LinkedHashMap<>();
				List<HttpResponse<String>> refused = new ArrayList<>();
				for (Map.Entry<String, Future<HttpResponse<String>>> entry : responses.entrySet()) {
					HttpResponse<String> response = entry.getValue().get(60, TimeUnit.SECONDS);
					if (response.statusCode() == 200) {
						started.put(response.headers().firstValue("Mcp-Session-Id").orElseThrow(), entry.getKey());
					}
					else {
						refused.add(response);
					}
				}
				assertThat(started).as("sessions started in round %d", round).hasSize(3);
				assertThat(refused).as("initializes refused in round %d", round)
					.hasSize(clients - 3)
					.allSatisfy((response) -> {
						assertThat(response.statusCode()).isEqualTo(503);
						assertThat(response.body()).contains("limit of 3 live sessions");
					});
				// Ended by their owners through instance B: the slots are free for the
				// next round
				for (Map.Entry<String, String> session : started.entrySet()) {
					assertThat(send(instanceB, "DELETE", session.getValue(), session.getKey(),
							HttpRequest.BodyPublishers.noBody())
						.statusCode()).isEqualTo(200);
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	// The instances' clocks move together, as the clocks of two machines do
	private static void advanceClocks(Duration duration) {
		instanceA.getBean(McpSessionLimitsIntegrationTests.MovableClock.class).advance(duration);
		instanceB.getBean(McpSessionLimitsIntegrationTests.MovableClock.class).advance(duration);
	}

	private static String initialize(ConfigurableApplicationContext instance, String user)
			throws IOException, InterruptedException {
		HttpResponse<String> response = post(instance, user, null, RawMcpHttp.INITIALIZE);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
	}

	private static HttpResponse<String> post(ConfigurableApplicationContext instance, String user, String session,
			String body) throws IOException, InterruptedException {
		return send(instance, "POST", user, session, HttpRequest.BodyPublishers.ofString(body));
	}

	private static HttpResponse<String> send(ConfigurableApplicationContext instance, String method, String user,
			String session, HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
		RawMcpHttp mcp = new RawMcpHttp(
				Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.server.port")));
		Map<String, String> headers = (session != null) ? mcp.sessionHeaders(session) : RawMcpHttp.jsonHeaders();
		if (user != null) {
			headers.put(USER_HEADER, user);
		}
		return mcp.send(method, headers, body);
	}

	// Outside @SpringBootTest nothing keeps the component scan away from the other tests'
	// @TestConfiguration classes
	static final class ExcludeOtherTestsConfigurations extends TypeExcludeFilter {

		@Override
		public boolean match(MetadataReader metadataReader, MetadataReaderFactory metadataReaderFactory) {
			return metadataReader.getAnnotationMetadata().hasAnnotation(TestConfiguration.class.getName());
		}

	}

}
