package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample app on one real PostgreSQL server, in a fresh schema, each
 * with its own port: the audit record of a call made on one instance is read through
 * {@code GET /agent/audit} of the other (once the batched writer has written it).
 */
@RequiresService(TestService.POSTGRES)
class PostgresTwoInstanceAuditIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path workspace;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private PostgresTestDatabase database;

	private ConfigurableApplicationContext instanceA;

	private ConfigurableApplicationContext instanceB;

	@BeforeEach
	void createSchema() {
		this.database = PostgresTestDatabase.createSchema();
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), this.database.jdbcUrl(),
				this.database.username(), this.database.password());
		TwoInstanceApprovalTests.SharedDatabase.dataSource = dataSource;
	}

	@AfterEach
	void stopInstancesAndDropSchema() {
		try {
			if (this.instanceA != null) {
				this.instanceA.close();
			}
			if (this.instanceB != null) {
				this.instanceB.close();
			}
		}
		finally {
			this.database.close();
		}
	}

	private ConfigurableApplicationContext start(String name) {
		// Command-line arguments, so that they win over application.yml (server.port:
		// 8080)
		return new SpringApplicationBuilder(SampleApplication.class, TwoInstanceApprovalTests.SharedDatabase.class).run(
				"--server.port=0", "--spring.jmx.enabled=false", "--sample.workspace.root=" + this.workspace,
				"--sample.approver.username=alice", "--sample.approver.password=alice-secret",
				"--sample.auditor.username=audrey", "--sample.auditor.password=audrey-secret",
				"--agent.middleware.approval.store.instance-id=" + name);
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@Test
	void eachInstanceReadsTheAuditRecordsOfCallsMadeOnTheOther() throws Exception {
		this.instanceA = start("a");
		this.instanceB = start("b");
		try (McpSession sessionOnA = McpSession.open(port(this.instanceA))) {
			sessionOnA.succeed("list_files", Map.of());
		}
		try (McpSession sessionOnB = McpSession.open(port(this.instanceB))) {
			sessionOnB.fail("list_files", Map.of("directory", Map.of("not", "a string")));
		}
		// The writers are batched: each record shows up on the other instance once
		// written
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(outcomes(port(this.instanceB), "list_files")).contains("succeeded"));
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(
					() -> assertThat(outcomes(port(this.instanceA), "list_files")).contains("invalid_arguments"));
		assertThat(outcomes(port(this.instanceA), "list_files")).containsExactly("invalid_arguments", "succeeded");
		assertThat(outcomes(port(this.instanceB), "list_files")).containsExactly("invalid_arguments", "succeeded");
	}

	private List<String> outcomes(int port, String tool) throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + port + "/agent/audit?tool=" + tool))
			.header("Authorization",
					"Basic " + Base64.getEncoder()
						.encodeToString("audrey:audrey-secret".getBytes(StandardCharsets.UTF_8)))
			.timeout(Duration.ofSeconds(10))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode records = JSON.readTree(response.body()).get("records");
		return records.valueStream().map((record) -> record.get("outcome").asString()).toList();
	}

}
