package dev.agentmiddleware.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.LoggerContext;
import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcAuditStore;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.slf4j.LoggerFactory;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The audit trail's cost: the governed call of {@link DefaultStackBenchmark#cacheMiss}
 * (the {@code echo} tool's JSON path with the default stack, distinct arguments every
 * call) without the audit trail ({@code audit=off}), with it in memory ({@code memory},
 * the auto-configured {@code InMemoryAuditStore}) and with the {@link JdbcAuditStore} on
 * PostgreSQL ({@code postgresql}: the database the tests use,
 * {@code AGENTMW_TEST_POSTGRES_URL}, {@code _USER}, {@code _PASSWORD}, through a Hikari
 * pool of 10; the row fails at setup, and JMH goes on with the others, without them).
 * Each trial prints how many records the writer wrote and dropped, so that a figure
 * measured while records were dropped (a writer that could not keep up) shows as such.
 *
 * <p>
 * {@link Writer#append} is the writer's capacity into PostgreSQL: one batch insert of
 * {@code batchSize} records, reported per record (records per second in throughput mode),
 * the writer's only blocking step.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuditBenchmark {

	/** Where the audit records go, or {@code off}. */
	@Param({ "off", "memory", "postgresql" })
	public String audit;

	private final ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "benchmark"));

	private AnnotationConfigApplicationContext context;

	private ToolCallback echo;

	private String[] distinct;

	private int next;

	private @Nullable HikariDataSource dataSource;

	@Setup
	public void setUp() {
		Map<String, Object> properties = new HashMap<>(BenchmarkContexts.DEFAULT_STACK_PROPERTIES);
		// The default stack's context (BenchmarkContexts.defaultStack()), with the audit
		// trail's auto-configuration
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME)
			.setLevel(ch.qos.logback.classic.Level.OFF);
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
			.setLevel(ch.qos.logback.classic.Level.WARN);
		this.context = new AnnotationConfigApplicationContext();
		this.context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
		this.context.registerBean(BenchmarkTools.class);
		this.context.register(BenchmarkContexts.DefaultStackConfiguration.class);
		if (!"off".equals(this.audit)) {
			this.context.register(AuditConfiguration.class);
		}
		if ("postgresql".equals(this.audit)) {
			HikariDataSource pool = postgres();
			JdbcAuditStore store = new JdbcAuditStore(pool);
			store.initializeSchema();
			JdbcClient.create(pool).sql("DELETE FROM agent_audit_record").update();
			this.dataSource = pool;
			this.context.registerBean(AuditStore.class, () -> store);
		}
		this.context.refresh();
		this.echo = BenchmarkContexts.callback(this.context, "echo");
		this.distinct = Arguments.distinct("echo");
	}

	@TearDown
	public void tearDown() {
		AuditTrail trail = this.context.getBeanProvider(AuditTrail.class).getIfAvailable();
		if (trail != null) {
			trail.close();
			System.out.printf("%naudit=%s: %d records written, %d dropped, %d failed writes%n", this.audit,
					trail.writtenRecords(), trail.droppedRecords(), trail.writeFailures());
		}
		this.context.close();
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

	@Benchmark
	public String governedCall() {
		String json = this.distinct[this.next];
		this.next = (this.next + 1) & (Arguments.COUNT - 1);
		return this.echo.call(json, this.session);
	}

	static HikariDataSource postgres() {
		String url = System.getenv("AGENTMW_TEST_POSTGRES_URL");
		if (url == null || url.isBlank()) {
			throw new IllegalStateException(
					"AGENTMW_TEST_POSTGRES_URL (and _USER, _PASSWORD) is not set: the PostgreSQL row is skipped");
		}
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(url);
		pool.setUsername(System.getenv("AGENTMW_TEST_POSTGRES_USER"));
		pool.setPassword(System.getenv("AGENTMW_TEST_POSTGRES_PASSWORD"));
		pool.setMaximumPoolSize(10);
		return pool;
	}

	@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
	@org.springframework.boot.autoconfigure.ImportAutoConfiguration(AuditAutoConfiguration.class)
	static class AuditConfiguration {

	}

	/**
	 * The writer's capacity into PostgreSQL: {@link JdbcAuditStore#append} of one batch,
	 * per record.
	 */
	@State(Scope.Benchmark)
	@BenchmarkMode(Mode.Throughput)
	@OutputTimeUnit(TimeUnit.SECONDS)
	public static class Writer {

		/**
		 * The records per batch ({@code agent.middleware.audit.batch-size}, 100 by
		 * default).
		 */
		@Param({ "1", "100", "500" })
		public int batchSize;

		private @Nullable HikariDataSource dataSource;

		private JdbcAuditStore store;

		private List<AuditRecord> batch;

		@Setup
		public void setUp() {
			HikariDataSource pool = postgres();
			this.store = new JdbcAuditStore(pool);
			this.store.initializeSchema();
			JdbcClient.create(pool).sql("DELETE FROM agent_audit_record").update();
			this.dataSource = pool;
			this.batch = new ArrayList<>();
			for (int i = 0; i < this.batchSize; i++) {
				// As a call of the echo tool leaves it: digest, fingerprint, no arguments
				this.batch.add(new AuditRecord(Instant.now(), "call-" + i, "echo", InvocationSource.MCP, "alice",
						"sid-0123456789abcdef", "4bf92f3577b34da6a3ce929d0e0e4736", CallOutcome.SUCCEEDED, null, null,
						null, Duration.ofMillis(2), "0".repeat(64), null, 5L));
			}
		}

		@TearDown(Level.Iteration)
		public void emptyTable() {
			// A table that grows by millions of rows a trial would measure the index, not
			// the writer
			JdbcClient.create(this.dataSource).sql("DELETE FROM agent_audit_record").update();
		}

		@TearDown
		public void tearDown() {
			if (this.dataSource != null) {
				this.dataSource.close();
			}
		}

		@Benchmark
		public void append(Records records) {
			this.store.append(this.batch);
			records.written += this.batch.size();
		}

	}

	/**
	 * Counts the records, so that JMH reports records per second whatever the batch size.
	 */
	@State(Scope.Thread)
	@org.openjdk.jmh.annotations.AuxCounters(org.openjdk.jmh.annotations.AuxCounters.Type.OPERATIONS)
	public static class Records {

		/** The records written. */
		public long written;

		@Setup(Level.Iteration)
		public void reset() {
			this.written = 0;
		}

	}

}
