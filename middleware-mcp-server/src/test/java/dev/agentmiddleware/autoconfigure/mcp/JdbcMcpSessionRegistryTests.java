package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link JdbcMcpSessionRegistry} writes to table {@code agent_mcp_session}, through
 * the transport as a client reaches it: every value fits its column or is refused with a
 * client error naming the field and the limit (never a 500 from the database), a
 * principal name of any length owns its session, and neither the session id (a bearer
 * secret) nor the owner's name is stored as it is, while lookups by the id the client
 * knows work. On H2 and on PostgreSQL.
 */
class JdbcMcpSessionRegistryTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final List<HttpMessageConverter<?>> CONVERTERS = List
		.of(new StringHttpMessageConverter(StandardCharsets.UTF_8));

	private static final McpStreamableServerSession.Factory SESSIONS = McpTestSessions
		.factory(new McpSchema.InitializeResult("2025-06-18", McpSchema.ServerCapabilities.builder().build(),
				new McpSchema.Implementation("server", "1.0"), null));

	// A token's subject longer than the 255 characters of the column that used to keep it
	private static final String LONG_PRINCIPAL = "sub-" + "s".repeat(296);

	@Test
	void anOverLongProtocolVersionIsRefusedAlsoWhenSessionsAreKeptInMemory() throws Exception {
		HardenedStreamableHttpTransport transport = HardenedStreamableHttpTransport.builder(JSON).build();
		transport.setSessionFactory(SESSIONS);
		Answer answer = post(transport, null, null, initialize("v".repeat(50)));
		assertThat(answer.status()).as(answer.body()).isEqualTo(400);
		assertThat(transport.sessionCount()).isZero();
	}

	@Nested
	class OnH2 extends StoreRules {

		private final HikariDataSource dataSource = new HikariDataSource();

		OnH2() {
			this.dataSource.setJdbcUrl("jdbc:h2:mem:mcp-store-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

		@AfterEach
		void closePool() {
			this.dataSource.close();
		}

		@Override
		DataSource dataSource() {
			return this.dataSource;
		}

	}

	@Nested
	@RequiresService(TestService.POSTGRES)
	class OnPostgres extends StoreRules {

		private PostgresTestDatabase database;

		private HikariDataSource dataSource;

		@BeforeEach
		void createSchema() {
			this.database = PostgresTestDatabase.createSchema();
			this.dataSource = new HikariDataSource();
			this.dataSource.setJdbcUrl(this.database.jdbcUrl());
			this.dataSource.setUsername(this.database.username());
			this.dataSource.setPassword(this.database.password());
			// Each registry holds one connection to hear the ends of sessions
			this.dataSource.setMaximumPoolSize(4);
		}

		@AfterEach
		void dropSchema() {
			this.dataSource.close();
			this.database.close();
		}

		@Override
		DataSource dataSource() {
			return this.dataSource;
		}

	}

	abstract static class StoreRules {

		abstract DataSource dataSource();

		private HardenedStreamableHttpTransport transport() {
			HardenedStreamableHttpTransport transport = HardenedStreamableHttpTransport.builder(JSON)
				.sessionStore(dataSource())
				.build();
			transport.setSessionFactory(SESSIONS);
			return transport;
		}

		@Test
		void aProtocolVersionLongerThanItsColumnIsRefusedWith400NamingTheFieldAndTheLimit() throws Exception {
			HardenedStreamableHttpTransport transport = transport();
			Answer answer = post(transport, null, null, initialize("v".repeat(50)));
			assertThat(answer.status()).as(answer.body()).isEqualTo(400);
			JsonNode error = JsonMapper.shared().readTree(answer.body()).get("error");
			assertThat(error.get("code").asInt()).isEqualTo(HardenedStreamableHttpTransport.INVALID_PARAMS);
			assertThat(error.get("message").asString()).contains("protocolVersion")
				.contains(String.valueOf(McpSessionRegistry.MAX_PROTOCOL_VERSION_LENGTH))
				.doesNotContain("vvvv");
			assertThat(rows()).isEmpty();

			// The longest one the column holds starts a session
			String longest = "v".repeat(McpSessionRegistry.MAX_PROTOCOL_VERSION_LENGTH);
			Answer started = post(transport, null, null, initialize(longest));
			assertThat(started.status()).as(started.body()).isEqualTo(200);
			assertThat(new JdbcTemplate(dataSource())
				.queryForList("SELECT protocol_version FROM " + JdbcMcpSessionRegistry.TABLE, String.class))
				.containsExactly(longest);
		}

		@Test
		void aPrincipalNameLongerThanAnyColumnStartsASessionThatOnlyItFinds() throws Exception {
			HardenedStreamableHttpTransport transport = transport();
			Answer started = post(transport, LONG_PRINCIPAL, null, initialize("2025-06-18"));
			assertThat(started.status()).as(started.body()).isEqualTo(200);
			String session = started.sessionId();

			assertThat(delete(transport, LONG_PRINCIPAL.substring(0, 255), session).status()).isEqualTo(404);
			assertThat(delete(transport, null, session).status()).isEqualTo(404);
			assertThat(transport.sessionCount()).isOne();
			assertThat(delete(transport, LONG_PRINCIPAL, session).status()).isEqualTo(200);
			assertThat(transport.sessionCount()).isZero();
		}

		@Test
		void aSessionStartedByALongPrincipalIsFoundByItOnAnotherInstance() {
			JdbcMcpSessionRegistry first = registry();
			JdbcMcpSessionRegistry second = registry();
			McpStreamableServerSession.McpStreamableServerSessionInit init = first.start(SESSIONS,
					request("2025-06-18"), LONG_PRINCIPAL);
			assertThat(init).isNotNull();
			String id = init.session().getId();
			assertThat(second.find(id, "alice")).isNull();
			McpLiveSession recreated = second.find(id, LONG_PRINCIPAL);
			assertThat(recreated).isNotNull();
			assertThat(recreated.id()).isEqualTo(id);
			assertThat(recreated.belongsTo(LONG_PRINCIPAL)).isTrue();
			assertThat(recreated.belongsTo("alice")).isFalse();
			first.endAll();
			second.endAll();
		}

		@Test
		void theTableHoldsNeitherTheRawSessionIdNorTheOwnersNameWhileLookupsByTheRawIdWork() {
			JdbcMcpSessionRegistry registry = registry();
			McpStreamableServerSession.McpStreamableServerSessionInit init = registry.start(SESSIONS,
					request("2025-06-18"), "alice");
			assertThat(init).isNotNull();
			String id = init.session().getId();

			List<Map<String, Object>> rows = rows();
			assertThat(rows).hasSize(1);
			assertThat(rows.get(0).get("id")).isEqualTo(IdDigests.of(id));
			for (Object value : rows.get(0).values()) {
				assertThat(String.valueOf(value)).doesNotContain(id).doesNotContain("alice");
			}

			// Another instance finds it by the id the client knows, and only for its
			// owner
			JdbcMcpSessionRegistry other = registry();
			assertThat(other.find(id, "bob")).isNull();
			assertThat(other.find(id, "alice")).isNotNull();
			assertThat(other.size()).isOne();
			other.end(id);
			assertThat(rows()).isEmpty();
			// At once on H2 (every request reads its row), once the end is heard on
			// PostgreSQL
			await().atMost(Duration.ofSeconds(10)).until(() -> registry.find(id, "alice") == null);
			assertThat(registry.get(id)).isNull();
			registry.endAll();
			other.endAll();
		}

		@Test
		void theColumnsHoldTheDeclaredLimits() throws Exception {
			registry();
			try (Connection connection = dataSource().getConnection()) {
				assertThat(columnSize(connection, "protocol_version"))
					.isEqualTo(McpSessionRegistry.MAX_PROTOCOL_VERSION_LENGTH);
				assertThat(columnSize(connection, "id")).isGreaterThanOrEqualTo(IdDigests.LENGTH);
				assertThat(columnSize(connection, "owner_name")).isGreaterThanOrEqualTo(IdDigests.LENGTH);
			}
		}

		private JdbcMcpSessionRegistry registry() {
			return new JdbcMcpSessionRegistry(dataSource(), JSON, Duration.ofMinutes(30), 100, Clock.systemUTC(),
					() -> SESSIONS);
		}

		private List<Map<String, Object>> rows() {
			List<Map<String, Object>> rows = new ArrayList<>();
			for (Map<String, Object> row : new JdbcTemplate(dataSource())
				.queryForList("SELECT id, owner_name, protocol_version, initialize_request FROM "
						+ JdbcMcpSessionRegistry.TABLE)) {
				Map<String, Object> lowerCase = new LinkedHashMap<>();
				row.forEach((column, value) -> lowerCase.put(column.toLowerCase(Locale.ROOT), value));
				rows.add(lowerCase);
			}
			return rows;
		}

		private static int columnSize(Connection connection, String column) throws Exception {
			for (String table : List.of(JdbcMcpSessionRegistry.TABLE,
					JdbcMcpSessionRegistry.TABLE.toUpperCase(Locale.ROOT))) {
				try (ResultSet columns = connection.getMetaData()
					.getColumns(null, connection.getSchema(), table, null)) {
					while (columns.next()) {
						if (column.equalsIgnoreCase(columns.getString("COLUMN_NAME"))) {
							return columns.getInt("COLUMN_SIZE");
						}
					}
				}
			}
			throw new AssertionError("No column " + column);
		}

	}

	private static McpSchema.InitializeRequest request(String protocolVersion) {
		return new McpSchema.InitializeRequest(protocolVersion, McpSchema.ClientCapabilities.builder().build(),
				new McpSchema.Implementation("test", "1.0"));
	}

	private static String initialize(String protocolVersion) {
		return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
				+ protocolVersion + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
	}

	private static Answer post(HardenedStreamableHttpTransport transport, @Nullable String user,
			@Nullable String session, String body) throws Exception {
		MockHttpServletRequest request = request("POST", user, session);
		request.setContentType("application/json");
		request.setContent(body.getBytes(StandardCharsets.UTF_8));
		return exchange(transport, request);
	}

	private static Answer delete(HardenedStreamableHttpTransport transport, @Nullable String user, String session)
			throws Exception {
		return exchange(transport, request("DELETE", user, session));
	}

	private static MockHttpServletRequest request(String method, @Nullable String user, @Nullable String session) {
		MockHttpServletRequest request = new MockHttpServletRequest(method, "/mcp");
		request.addHeader("Host", "localhost");
		request.addHeader("Accept", "application/json, text/event-stream");
		if (session != null) {
			request.addHeader("Mcp-Session-Id", session);
		}
		if (user != null) {
			request.setUserPrincipal(() -> user);
		}
		return request;
	}

	// The transport's answer as the servlet container would write it
	private static Answer exchange(HardenedStreamableHttpTransport transport, MockHttpServletRequest request)
			throws Exception {
		ServerRequest serverRequest = ServerRequest.create(request, CONVERTERS);
		ServerResponse response = transport.routerFunction().route(serverRequest).orElseThrow().handle(serverRequest);
		MockHttpServletResponse servletResponse = new MockHttpServletResponse();
		response.writeTo(request, servletResponse, () -> CONVERTERS);
		return new Answer(servletResponse.getStatus(), servletResponse.getContentAsString(StandardCharsets.UTF_8),
				servletResponse.getHeader("Mcp-Session-Id"));
	}

	private record Answer(int status, String body, @Nullable String sessionId) {
	}

}
