package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import dev.agentmiddleware.cache.CacheInvalidation;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcCacheInvalidations} on H2 (polling): what another instance wrote to the
 * table is applied once, also when it commits after an invalidation with a higher id;
 * this instance's own rows are not applied again.
 */
class JdbcCacheInvalidationsTests {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:invalidations-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	private final AtomicInteger executions = new AtomicInteger();

	private final ToolResultCache cache = ToolResultCache.create();

	private JdbcCacheInvalidations invalidations;

	@BeforeEach
	void start() {
		this.invalidations = new JdbcCacheInvalidations(this.dataSource, Duration.ofMillis(20));
		this.invalidations.initializeSchema();
		this.invalidations.start(this.cache);
	}

	@AfterEach
	void stop() throws Exception {
		this.invalidations.close();
	}

	@Test
	void anInvalidationCommittedAfterOneWithAHigherIdIsStillApplied() throws Exception {
		ToolPipeline first = cachedTool("first");
		ToolPipeline second = cachedTool("second");
		first.call(call("first"));
		second.call(call("second"));
		insertFromAnotherInstance(1002, "second");
		awaitApplied(() -> size("second") == 0);
		assertThat(size("first")).isEqualTo(1);
		insertFromAnotherInstance(1001, "first");
		awaitApplied(() -> size("first") == 0);
	}

	@Test
	void anInvalidationIsAppliedOnceAndOwnInvalidationsAreNotAppliedAgain() throws Exception {
		ToolPipeline first = cachedTool("first");
		first.call(call("first"));
		insertFromAnotherInstance(7, "first");
		awaitApplied(() -> size("first") == 0);
		first.call(call("first"));
		this.invalidations.publish(CacheInvalidation.tool("first"));
		// A later invalidation of another instance shows that the poller has read past
		// both rows.
		cachedTool("second").call(call("second"));
		insertFromAnotherInstance(9, "second");
		awaitApplied(() -> size("second") == 0);
		assertThat(size("first")).as("neither row 7 again nor its own row removed the new entry").isEqualTo(1);
		assertThat(this.executions).hasValue(3);
	}

	private void insertFromAnotherInstance(long id, String tool) {
		JdbcClient.create(this.dataSource)
			.sql("INSERT INTO agent_cache_invalidation (id, origin, tool_name, arguments_hash, created_at) "
					+ "VALUES (?, 'other-instance', ?, NULL, ?)")
			.params(id, tool, System.currentTimeMillis())
			.update();
	}

	private ToolPipeline cachedTool(String name) {
		ToolDescriptor tool = ToolDescriptor.builder(name).readOnly(true).build();
		return ToolPipeline.builder(tool, (invocation) -> name + " #" + this.executions.incrementAndGet())
			.middleware(CacheMiddleware.builder().cache(this.cache).build())
			.build();
	}

	private static ToolInvocation call(String name) {
		return ToolInvocation.builder(ToolDescriptor.builder(name).readOnly(true).build())
			.argument("path", "/a")
			.sessionId("s1")
			.build();
	}

	private long size(String tool) {
		CacheStatistics statistics = this.cache.statistics().get(tool);
		return (statistics != null) ? statistics.size() : 0;
	}

	// Polls every 5 ms; the bound only has to end the test if the row is never applied,
	// also on a loaded machine.
	private static void awaitApplied(BooleanSupplier condition) {
		await("applied within 10 seconds").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(condition::getAsBoolean);
	}

}
