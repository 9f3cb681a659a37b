package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import dev.agentmiddleware.ratelimit.RateLimiterStore.ToolLimiter;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Bucket4jJdbcRateLimiterStore} on a real PostgreSQL.
 */
@RequiresService(TestService.POSTGRES)
class PostgresBucket4jJdbcRateLimiterStoreTests {

	private static final int CALLERS = 8;

	private final PostgresTestDatabase database = PostgresTestDatabase.createSchema();

	private final HikariDataSource dataSource = new HikariDataSource();

	private final Bucket4jJdbcRateLimiterStore store;

	PostgresBucket4jJdbcRateLimiterStoreTests() {
		this.dataSource.setJdbcUrl(this.database.jdbcUrl());
		this.dataSource.setUsername(this.database.username());
		this.dataSource.setPassword(this.database.password());
		this.dataSource.setMaximumPoolSize(CALLERS);
		this.store = new Bucket4jJdbcRateLimiterStore(this.dataSource);
		this.store.initializeSchema();
	}

	@AfterEach
	void dropSchema() {
		this.store.close();
		this.dataSource.close();
		this.database.close();
	}

	@Test
	void concurrentPermitsOfNewBucketsAreCountedExactlyAndNeverUnavailable() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
		try {
			// Each round a new bucket, asked by every caller at once: the permits that
			// wait for another one's go to the database as one batch
			for (int round = 0; round < 20; round++) {
				ToolLimiter limiter = this.store.limiter("search-" + round, RateLimitPolicy.of(5, Duration.ofHours(1)));
				CountDownLatch start = new CountDownLatch(1);
				List<Callable<Integer>> callers = new ArrayList<>();
				for (int i = 0; i < CALLERS; i++) {
					callers.add(() -> {
						start.await();
						int granted = 0;
						for (int call = 0; call < 2; call++) {
							RateLimitDecision decision = limiter.acquire("");
							granted += decision.granted() ? 1 : 0;
						}
						return granted;
					});
				}
				List<Future<Integer>> results = new ArrayList<>();
				for (Callable<Integer> caller : callers) {
					results.add(pool.submit(caller));
				}
				start.countDown();
				int granted = 0;
				for (Future<Integer> result : results) {
					granted += result.get();
				}
				assertThat(granted).as("permits granted in round %d", round).isEqualTo(5);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void anUnreachableDatabaseIsUnavailable() {
		SimpleDriverDataSource unreachable = new SimpleDriverDataSource(new org.postgresql.Driver(),
				"jdbc:postgresql://127.0.0.1:1/agentmw?connectTimeout=2", "nobody", "nothing");
		try (Bucket4jJdbcRateLimiterStore down = new Bucket4jJdbcRateLimiterStore(unreachable)) {
			ToolLimiter limiter = down.limiter("search", RateLimitPolicy.of(5, Duration.ofHours(1)));
			assertThatExceptionOfType(RateLimiterUnavailableException.class).isThrownBy(() -> limiter.acquire(""))
				.withMessageStartingWith("the PostgreSQL rate-limit store failed for tool 'search': ");
		}
	}

}
