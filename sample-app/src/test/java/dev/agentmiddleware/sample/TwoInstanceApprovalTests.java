package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample app, each with its own port, sharing one approval store in
 * a database: a call waiting on instance A is released by a decision posted to instance
 * B. Subclasses give the database.
 */
abstract class TwoInstanceApprovalTests {

	@TempDir
	Path workspace;

	private ConfigurableApplicationContext instanceA;

	private ConfigurableApplicationContext instanceB;

	/**
	 * The shared database.
	 * @return the data source
	 */
	protected abstract DataSource dataSource();

	/**
	 * How often a waiting call polls the store.
	 * @return a duration property value
	 */
	protected abstract String pollInterval();

	/**
	 * How long a pending request may go without a heartbeat; waiting calls beat at least
	 * three times as often.
	 * @return a duration property value
	 */
	protected String abandonAfter() {
		return "30s";
	}

	@AfterEach
	void stopInstances() {
		if (this.instanceA != null) {
			this.instanceA.close();
		}
		if (this.instanceB != null) {
			this.instanceB.close();
		}
	}

	private ConfigurableApplicationContext start(String name) {
		SharedDatabase.dataSource = dataSource();
		// Command-line arguments, so that they win over application.yml (server.port:
		// 8080).
		return new SpringApplicationBuilder(SampleApplication.class, SharedDatabase.class).run("--server.port=0",
				"--spring.jmx.enabled=false", "--sample.workspace.root=" + this.workspace,
				"--sample.approver.username=alice", "--sample.approver.password=alice-secret",
				"--agent.middleware.approval.store.poll-interval=" + pollInterval(),
				"--agent.middleware.approval.store.abandon-after=" + abandonAfter(),
				"--agent.middleware.approval.store.instance-id=" + name);
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@Test
	void callWaitingOnOneInstanceIsReleasedByADecisionPostedToTheOther() throws Exception {
		this.instanceA = start("a");
		this.instanceB = start("b");
		Path file = this.workspace.resolve("shared.txt");
		Files.writeString(file, "keep me");
		ApprovalApi approverOnB = new ApprovalApi(port(this.instanceB), "alice", "alice-secret");
		try (McpSession sessionOnA = McpSession.open(port(this.instanceA))) {
			CompletableFuture<CallToolResult> call = sessionOnA.callAsync("delete_file", Map.of("path", "shared.txt"));
			JsonNode request = approverOnB.awaitPendingFor("delete_file", "shared.txt");
			assertThat(call).isNotDone();
			assertThat(approverOnB.approve(request.get("id").asString()).status()).isEqualTo(200);
			assertThat(McpSession.text(call.get(20, TimeUnit.SECONDS))).isEqualTo("Deleted shared.txt");
			assertThat(file).doesNotExist();

			String outcome = JdbcClient.create(dataSource())
				.sql("SELECT outcome FROM agent_approval_audit WHERE request_id = ?")
				.param(request.get("id").asString())
				.query(String.class)
				.single();
			assertThat(outcome).isEqualTo("APPROVED");
			assertThat(new ApprovalApi(port(this.instanceA), "alice", "alice-secret").audit()).anySatisfy(
					(record) -> assertThat(record.get("requestId").asString()).isEqualTo(request.get("id").asString()));
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class SharedDatabase {

		static DataSource dataSource;

		@Bean
		DataSource dataSource() {
			return dataSource;
		}

	}

}
