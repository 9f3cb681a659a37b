package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.testsupport.PostgresTestServer;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The audit trail through a real PostgreSQL outage: a server of the test's own
 * ({@link PostgresTestServer}, never the shared one) is stopped while calls go on through
 * a real chain with the {@link AuditTrail} and the {@link JdbcAuditStore}; the calls all
 * succeed, and once the server is started again every record is in the table, with the
 * outage logged once (its start and its end) and its failed writes counted.
 */
@RequiresService(TestService.POSTGRES_SERVER)
class PostgresAuditOutageIntegrationTests {

	private static final ToolDescriptor TOOL = ToolDescriptor.builder("delete_file").build();

	@RegisterExtension
	final CapturedLog log = CapturedLog.of(AuditTrail.class, Level.INFO);

	private final PostgresTestServer postgres = PostgresTestServer.start();

	private final HikariDataSource dataSource = new HikariDataSource();

	private final AuditTrail trail;

	private final ToolCallObservers observers;

	private final ToolPipeline pipeline;

	PostgresAuditOutageIntegrationTests() {
		this.dataSource.setJdbcUrl(this.postgres.jdbcUrl());
		this.dataSource.setUsername(this.postgres.username());
		this.dataSource.setConnectionTimeout(1000);
		this.dataSource.setMaximumPoolSize(2);
		JdbcAuditStore store = new JdbcAuditStore(this.dataSource);
		store.initializeSchema();
		this.trail = AuditTrail.builder(store)
			.batchSize(10)
			.flushInterval(Duration.ofMillis(20))
			.retryInterval(Duration.ofMillis(250))
			.build();
		this.observers = ToolCallObservers.builder().observer(this.trail).build();
		this.pipeline = ToolPipeline.builder(TOOL, (invocation) -> "deleted").observers(this.observers).build();
	}

	@AfterEach
	void stop() throws Exception {
		try {
			this.observers.close();
			this.trail.close();
			this.dataSource.close();
		}
		finally {
			this.postgres.close();
		}
	}

	@Test
	void callsMadeWhileTheDatabaseIsDownAllSucceedAndEveryRecordIsWrittenOnceItIsBack() throws Exception {
		for (int i = 0; i < 5; i++) {
			assertThat(this.pipeline.call(call("before-" + i))).isEqualTo("deleted");
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.trail.writtenRecords() == 5);

		this.postgres.stop();
		for (int i = 0; i < 30; i++) {
			assertThat(this.pipeline.call(call("during-" + i))).isEqualTo("deleted");
		}
		// The writer tries, fails, keeps the batch and tries again
		await().atMost(Duration.ofSeconds(20)).until(() -> this.trail.writeFailures() >= 2);
		assertThat(this.trail.writtenRecords()).isEqualTo(5);

		this.postgres.restart();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.trail.writtenRecords() == 35);
		List<AuditRecord> records = this.trail.store().find(AuditQuery.all().withTool("delete_file").withPage(0, 100));
		assertThat(records).hasSize(35);
		assertThat(records).extracting(AuditRecord::callId).doesNotHaveDuplicates();
		assertThat(records).extracting(AuditRecord::principal).containsOnly("bob").hasSize(35);
		assertThat(records.stream().filter((record) -> record.callId().startsWith("during-"))).hasSize(30);
		assertThat(this.trail.droppedRecords()).isZero();
		assertThat(this.trail.pendingRecords()).isZero();
		assertThat(messages(Level.WARN)).singleElement()
			.satisfies((message) -> assertThat(message).startsWith("The audit store refused a batch of"));
		assertThat(messages(Level.INFO)).singleElement()
			.satisfies((message) -> assertThat(message).startsWith("The audit store accepts records again"));
	}

	private static ToolInvocation call(String callId) {
		return ToolInvocation.builder(TOOL).callId(callId).argument("path", "notes.txt").principal("bob").build();
	}

	private List<String> messages(Level level) {
		return this.log.events()
			.stream()
			.filter((event) -> event.getLevel() == level)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

}
