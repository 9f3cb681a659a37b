package dev.agentmiddleware.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.autoconfigure.jdbc.Bucket4jJdbcRateLimiterStore;
import dev.agentmiddleware.autoconfigure.redis.Bucket4jRedisRateLimiterStore;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
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
import org.openjdk.jmh.annotations.Threads;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The per-call cost of a rate-limited call when the limit is counted in memory
 * (Resilience4j) and when it is shared in PostgreSQL (Bucket4j, one
 * {@code SELECT ... FOR UPDATE} transaction per call, or per batch of an instance's
 * concurrent calls of one bucket) or in Redis (Bucket4j's Lettuce backend, a {@code GET}
 * and a compare-and-swap script per call or batch): the {@code echo} tool of
 * {@link PipelineBenchmark} behind a {@link RateLimitMiddleware} whose limit is never
 * reached. The database is the one the tests use ({@code AGENTMW_TEST_POSTGRES_URL},
 * {@code _USER}, {@code _PASSWORD}; default
 * {@code jdbc:postgresql://127.0.0.1:5432/agentmw}), on loopback, through a Hikari pool
 * of 10; Redis is {@code AGENTMW_BENCHMARK_REDIS_URL} (default
 * {@code redis://127.0.0.1:6379}, emptied at the start), on loopback, through one Lettuce
 * connection.
 *
 * <p>
 * {@link #limitedCall} is one caller (average time); {@link Throughput#limitedCalls} is 4
 * callers (calls per second), with one limit for the tool (every call locks the same row)
 * or one per session (each caller its own session, so its own row): the figures behind
 * the capacity note in the README.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SharedRateLimitBenchmark {

	/** Where the limit is counted. */
	@Param({ "memory", "postgresql", "redis" })
	public String store;

	private final BenchmarkTools tools = new BenchmarkTools();

	private final LimitedEcho echo = new LimitedEcho();

	@Setup
	public void setUp() {
		this.echo.start(this.store, RateLimitKey.TOOL, this.tools);
	}

	@TearDown
	public void tearDown() {
		this.echo.close();
	}

	@Benchmark
	public @Nullable Object limitedCall() throws Exception {
		return this.echo.pipeline.call(this.echo.invocation("s1"));
	}

	/**
	 * Four callers at once, against a shared store.
	 */
	@State(Scope.Benchmark)
	@BenchmarkMode(Mode.Throughput)
	@OutputTimeUnit(TimeUnit.SECONDS)
	@Threads(4)
	public static class Throughput {

		/**
		 * What the limit counts per: the tool (one row for all callers) or the session (a
		 * row per caller).
		 */
		@Param({ "tool", "session" })
		public String key;

		/** The shared store. */
		@Param({ "postgresql", "redis" })
		public String store;

		private final BenchmarkTools tools = new BenchmarkTools();

		private final LimitedEcho echo = new LimitedEcho();

		@Setup
		public void setUp() {
			this.echo.start(this.store, "tool".equals(this.key) ? RateLimitKey.TOOL : RateLimitKey.TOOL_AND_SESSION,
					this.tools);
		}

		@TearDown
		public void tearDown() {
			this.echo.close();
		}

		@Benchmark
		public @Nullable Object limitedCalls(Caller caller) throws Exception {
			return this.echo.pipeline.call(caller.invocation(this.echo));
		}

	}

	/**
	 * One calling thread, with its own session.
	 */
	@State(Scope.Thread)
	public static class Caller {

		private static final AtomicInteger callers = new AtomicInteger();

		private String session = "";

		private @Nullable ToolInvocation invocation;

		@Setup(Level.Trial)
		public void setUp() {
			this.session = "caller-" + callers.incrementAndGet();
		}

		ToolInvocation invocation(LimitedEcho echo) {
			ToolInvocation invocation = this.invocation;
			if (invocation == null) {
				invocation = echo.invocation(this.session);
				this.invocation = invocation;
			}
			return invocation;
		}

	}

	/**
	 * The tool behind its rate limit, and the pool of the shared store.
	 */
	static final class LimitedEcho {

		private final ToolDescriptor tool = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(String.class)
			.build();

		ToolPipeline pipeline;

		private @Nullable HikariDataSource dataSource;

		private @Nullable Bucket4jJdbcRateLimiterStore bucket4j;

		private @Nullable RedisClient redisClient;

		private @Nullable Bucket4jRedisRateLimiterStore redisStore;

		void start(String store, RateLimitKey key, BenchmarkTools tools) {
			// A limit never reached: every call takes a permit.
			RateLimitPolicy policy = RateLimitPolicy.of(1_000_000_000, Duration.ofSeconds(1)).withKey(key);
			RateLimitMiddleware.Builder rateLimit = RateLimitMiddleware.builder().policies((tool) -> policy);
			if ("postgresql".equals(store)) {
				HikariDataSource pool = postgres();
				Bucket4jJdbcRateLimiterStore shared = new Bucket4jJdbcRateLimiterStore(pool);
				shared.initializeSchema();
				JdbcClient.create(pool).sql("DELETE FROM " + Bucket4jJdbcRateLimiterStore.TABLE).update();
				rateLimit.store(shared);
				this.dataSource = pool;
				this.bucket4j = shared;
			}
			else if ("redis".equals(store)) {
				RedisClient client = redis();
				try (StatefulRedisConnection<String, String> connection = client.connect()) {
					connection.sync().flushdb();
				}
				Bucket4jRedisRateLimiterStore shared = new Bucket4jRedisRateLimiterStore(client, Duration.ofSeconds(5));
				rateLimit.store(shared);
				this.redisClient = client;
				this.redisStore = shared;
			}
			this.pipeline = ToolPipeline.builder(this.tool, PipelineBenchmark.handler(tools))
				.middleware(List.of(rateLimit.build()))
				.build();
		}

		ToolInvocation invocation(String session) {
			return ToolInvocation.builder(this.tool).argument("text", "hello").sessionId(session).build();
		}

		void close() {
			if (this.bucket4j != null) {
				this.bucket4j.close();
			}
			if (this.dataSource != null) {
				this.dataSource.close();
			}
			if (this.redisStore != null) {
				this.redisStore.close();
			}
			if (this.redisClient != null) {
				this.redisClient.shutdown();
			}
		}

		static RedisClient redis() {
			return RedisClient.create(env("AGENTMW_BENCHMARK_REDIS_URL", "redis://127.0.0.1:6379"));
		}

		static HikariDataSource postgres() {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl(env("AGENTMW_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/agentmw"));
			pool.setUsername(env("AGENTMW_TEST_POSTGRES_USER", "agentmw"));
			pool.setPassword(env("AGENTMW_TEST_POSTGRES_PASSWORD", "agentmw"));
			pool.setMaximumPoolSize(10);
			return pool;
		}

		private static String env(String name, String fallback) {
			String value = System.getenv(name);
			return (value != null && !value.isBlank()) ? value : fallback;
		}

	}

}
