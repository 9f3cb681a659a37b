package dev.agentmiddleware.benchmarks;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.autoconfigure.jdbc.Bucket4jJdbcRateLimiterStore;
import dev.agentmiddleware.autoconfigure.redis.Bucket4jRedisRateLimiterStore;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimiterStore;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Counts the database round trips of one rate-limited call with the shared (Bucket4j,
 * PostgreSQL) store: the statements executed and the commits and rollbacks, through a
 * counting wrapper around the pool's connections (outside JMH, so that the wrapper does
 * not skew the timings). Prints one line per kind and the total per call, for the first
 * call of a key (its row is created) and for the calls after it. With the argument
 * {@code redis} it counts the commands the Redis store sends instead, with a Lettuce
 * command listener on its client ({@code AGENTMW_BENCHMARK_REDIS_URL}, default
 * {@code redis://127.0.0.1:6379}, emptied first). <pre>
 * java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.RateLimitRoundTripProbe
 * java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.RateLimitRoundTripProbe redis
 * </pre>
 */
public final class RateLimitRoundTripProbe {

	private static final Set<String> ROUND_TRIPS = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch",
			"commit", "rollback");

	private RateLimitRoundTripProbe() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("redis")) {
			redis(1000);
			return;
		}
		int calls = 1000;
		Map<String, AtomicLong> counts = new TreeMap<>();
		try (HikariDataSource pool = SharedRateLimitBenchmark.LimitedEcho.postgres()) {
			DataSource counting = new DelegatingDataSource(pool) {

				@Override
				public Connection getConnection() throws java.sql.SQLException {
					return counted(Connection.class, super.getConnection(), counts);
				}

			};
			Bucket4jJdbcRateLimiterStore store = new Bucket4jJdbcRateLimiterStore(counting);
			store.initializeSchema();
			JdbcClient.create(pool).sql("DELETE FROM " + Bucket4jJdbcRateLimiterStore.TABLE).update();
			measure(limitedEcho(store), counts, calls);
			store.close();
		}
	}

	// Lettuce's command listener sees every command the store's client sends (one round
	// trip each); the commands the
	// compare-and-swap script runs inside Redis are not round trips and are not counted.
	private static void redis(int calls) throws Exception {
		Map<String, AtomicLong> counts = new TreeMap<>();
		RedisClient client = SharedRateLimitBenchmark.LimitedEcho.redis();
		client.addListener(new CommandListener() {

			@Override
			public void commandStarted(CommandStartedEvent event) {
				counts.computeIfAbsent(event.getCommand().getType().toString(), (name) -> new AtomicLong())
					.incrementAndGet();
			}

		});
		try (Bucket4jRedisRateLimiterStore store = new Bucket4jRedisRateLimiterStore(client, Duration.ofSeconds(5))) {
			try (StatefulRedisConnection<String, String> admin = client.connect()) {
				admin.sync().flushdb();
			}
			measure(limitedEcho(store), counts, calls);
		}
		finally {
			client.shutdown();
		}
	}

	// Prints the round trips of the first call of the key, then those of each later call
	// on average.
	private static void measure(ToolPipeline pipeline, Map<String, AtomicLong> counts, int calls) throws Exception {
		ToolInvocation invocation = ToolInvocation.builder(pipeline.tool()).build();
		counts.clear();
		pipeline.call(invocation);
		System.out.println("first call of a key: " + total(counts) + " round trips " + counts);
		counts.clear();
		for (int i = 0; i < calls; i++) {
			pipeline.call(invocation);
		}
		System.out.printf("each later call: %.2f round trips (%s over %d calls)%n", total(counts) / (double) calls,
				counts, calls);
	}

	// The echo tool behind a limit it never reaches: every call takes a permit from the
	// store.
	private static ToolPipeline limitedEcho(RateLimiterStore store) {
		return ToolPipeline.builder(ToolDescriptor.builder("echo").build(), (invocation) -> "ok")
			.middleware(List.of(RateLimitMiddleware.builder()
				.policies((tool) -> RateLimitPolicy.of(1_000_000_000, Duration.ofSeconds(1)))
				.store(store)
				.build()))
			.build();
	}

	private static long total(Map<String, AtomicLong> counts) {
		return counts.values().stream().mapToLong(AtomicLong::get).sum();
	}

	// A proxy that counts the round-trip methods of a connection and of the statements it
	// creates.
	@SuppressWarnings("unchecked")
	private static <T> T counted(Class<T> type, Object target, Map<String, AtomicLong> counts) {
		InvocationHandler handler = (proxy, method, arguments) -> {
			if (ROUND_TRIPS.contains(method.getName())) {
				counts.computeIfAbsent(method.getName(), (name) -> new AtomicLong()).incrementAndGet();
			}
			Object result = invoke(method, target, arguments);
			if (result instanceof Statement statement && method.getReturnType().isInterface()) {
				return counted(method.getReturnType(), statement, counts);
			}
			return result;
		};
		return (T) Proxy.newProxyInstance(RateLimitRoundTripProbe.class.getClassLoader(), new Class<?>[] { type },
				handler);
	}

	private static Object invoke(Method method, Object target, Object[] arguments) throws Throwable {
		try {
			return method.invoke(target, arguments);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
