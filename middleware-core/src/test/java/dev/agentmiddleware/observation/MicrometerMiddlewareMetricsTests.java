package dev.agentmiddleware.observation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerMiddlewareMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final MicrometerMiddlewareMetrics metrics = new MicrometerMiddlewareMetrics(this.registry);

	@Test
	void countsEachEventPerToolUnderTheEventsMeterName() {
		this.metrics.count(MiddlewareEvent.CACHE_HIT, "get_weather");
		this.metrics.count(MiddlewareEvent.CACHE_HIT, "get_weather");
		this.metrics.count(MiddlewareEvent.CACHE_HIT, "search");
		this.metrics.count(MiddlewareEvent.RATE_LIMIT_REJECTED, "get_weather");
		assertThat(count("agent.tool.cache.hits", "get_weather")).isEqualTo(2);
		assertThat(count("agent.tool.cache.hits", "search")).isEqualTo(1);
		assertThat(count("agent.tool.ratelimit.rejections", "get_weather")).isEqualTo(1);
		assertThat(this.registry.find("agent.tool.cache.misses").counter()).isNull();
	}

	@Test
	void registersOneCounterPerEventAndToolAndReusesIt() {
		for (int i = 0; i < 5; i++) {
			this.metrics.count(MiddlewareEvent.RETRY, "flaky");
			this.metrics.count(MiddlewareEvent.APPROVAL_REQUESTED, "delete_file");
		}
		assertThat(this.registry.getMeters()).hasSize(2);
		assertThat(this.registry.get("agent.tool.retries").counter().getId().getDescription()).isNotBlank();
	}

	@Test
	void everyEventHasItsOwnMeterName() {
		Set<String> names = new HashSet<>();
		for (MiddlewareEvent event : MiddlewareEvent.values()) {
			this.metrics.count(event, "tool");
			names.add(event.meterName());
		}
		assertThat(names).hasSize(MiddlewareEvent.values().length);
		assertThat(this.registry.getMeters()).hasSize(MiddlewareEvent.values().length);
	}

	@Test
	void countsExactlyUnderConcurrentUse() throws Exception {
		int threads = 4;
		int perThread = 2_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < perThread; i++) {
						this.metrics.count(MiddlewareEvent.CACHE_MISS, "tool-" + (i % 3));
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		double total = count("agent.tool.cache.misses", "tool-0") + count("agent.tool.cache.misses", "tool-1")
				+ count("agent.tool.cache.misses", "tool-2");
		assertThat(total).isEqualTo(threads * perThread);
		assertThat(this.registry.getMeters()).hasSize(3);
	}

	private double count(String name, String tool) {
		return this.registry.get(name).tag(MicrometerMiddlewareMetrics.TOOL_NAME_TAG, tool).counter().count();
	}

}
