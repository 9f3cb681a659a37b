package dev.agentmiddleware.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

abstract class JdbcAuditStoreContract {

	private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

	abstract DataSource dataSource();

	private JdbcAuditStore store;

	@BeforeEach
	void createStore() {
		this.store = new JdbcAuditStore(dataSource());
		this.store.initializeSchema();
		this.store.initializeSchema();
	}

	@Test
	void aBatchIsKeptAndReadBackNewestFirstWithEveryField() {
		AuditRecord full = new AuditRecord(NOW, "c-1", "delete_file", InvocationSource.MCP, "bob", "sid-0123456789",
				"4bf92f3577b34da6a3ce929d0e0e4736", CallOutcome.DENIED, "approval", "req-1", null,
				Duration.ofMillis(12), "a".repeat(64), "{\"path\":\"x\"}", null);
		this.store.append(List.of(record("c-0", NOW.minusSeconds(1), "read_file", CallOutcome.SUCCEEDED), full));
		List<AuditRecord> records = this.store.find(AuditQuery.all());
		assertThat(records).extracting(AuditRecord::callId).containsExactly("c-1", "c-0");
		assertThat(records.get(0)).isEqualTo(full);
		assertThat(records.get(1).resultSize()).isEqualTo(4L);
	}

	@Test
	void filtersAndPagesLikeTheQuerySays() {
		List<AuditRecord> records = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			records.add(record("c-" + i, NOW.plusSeconds(i), (i % 2 == 0) ? "read_file" : "delete_file",
					(i < 5) ? CallOutcome.SUCCEEDED : CallOutcome.RATE_LIMITED));
		}
		this.store.append(records);
		assertThat(this.store.find(AuditQuery.all().withTool("read_file").withOutcome(CallOutcome.RATE_LIMITED)))
			.extracting(AuditRecord::callId)
			.containsExactly("c-8", "c-6");
		assertThat(this.store.find(AuditQuery.all().withPage(1, 3))).extracting(AuditRecord::callId)
			.containsExactly("c-6", "c-5", "c-4");
		assertThat(this.store.find(AuditQuery.all().withTime(NOW.plusSeconds(2), NOW.plusSeconds(4))))
			.extracting(AuditRecord::callId)
			.containsExactly("c-3", "c-2");
		assertThat(this.store.find(AuditQuery.all().withPrincipal("alice"))).isEmpty();
	}

	@Test
	void retentionPurgesOldRecordsByTheInjectedClock() {
		this.store.append(List.of(record("old", NOW.minus(Duration.ofDays(91)), "t", CallOutcome.SUCCEEDED),
				record("recent", NOW.minus(Duration.ofDays(89)), "t", CallOutcome.SUCCEEDED)));
		try (AuditTrail trail = AuditTrail.builder(this.store)
			.retention(Duration.ofDays(90))
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.build()) {
			assertThat(trail.purgeExpired()).isEqualTo(1);
		}
		assertThat(this.store.find(AuditQuery.all())).extracting(AuditRecord::callId).containsExactly("recent");
	}

	@Test
	void anOutageIsCountedAndBufferedThenEveryRecordIsWrittenInBatches() {
		AtomicBoolean down = new AtomicBoolean();
		DataSource failing = new DelegatingDataSource(dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				if (down.get()) {
					throw new SQLException("Connection refused", "08001");
				}
				return super.getConnection();
			}

		};
		JdbcAuditStore flaky = new JdbcAuditStore(failing);
		down.set(true);
		try (AuditTrail trail = AuditTrail.builder(flaky)
			.batchSize(20)
			.flushInterval(Duration.ofMillis(10))
			.retryInterval(Duration.ofMillis(20))
			.build()) {
			ToolDescriptor tool = ToolDescriptor.builder("read_file").build();
			for (int i = 0; i < 50; i++) {
				trail.onToolCall(new ToolCallRecord(ToolInvocation.builder(tool).argument("path", "p" + i).build(),
						CallOutcome.SUCCEEDED, "text", null, NOW, Duration.ofMillis(1), null));
			}
			await().until(() -> trail.writeFailures() >= 3);
			assertThat(this.store.find(AuditQuery.all())).isEmpty();
			down.set(false);
			await().until(() -> trail.writtenRecords() == 50);
			assertThat(trail.droppedRecords()).isZero();
		}
		assertThat(this.store.find(AuditQuery.all().withPage(0, 100))).hasSize(50);
	}

	static AuditRecord record(String callId, Instant time, String tool, CallOutcome outcome) {
		return new AuditRecord(time, callId, tool, InvocationSource.JAVA, "bob", null, null, outcome, null, null, null,
				Duration.ofMillis(3), "0".repeat(64), null, 4L);
	}

}
