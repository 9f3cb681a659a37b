package dev.agentmiddleware.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.agentmiddleware.sample.browser.BrowserSession;
import dev.agentmiddleware.sample.counting.CallCountingMiddleware;
import dev.agentmiddleware.sample.resilience.ExchangeRateTools;
import dev.agentmiddleware.tool.CallOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the sample app over MCP and shows each resilience built-in at work with the
 * sample's own {@code application.yml}: caching, rate limiting, retries, timeouts and
 * crash recovery. Every test uses arguments no other test uses and measures counters as
 * differences, so the tests do not depend on their order.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ResilienceMcpIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	RecordingObserver observer;

	@Autowired
	CallCountingMiddleware callCounting;

	@Autowired
	ExchangeRateTools exchangeRates;

	@Autowired
	BrowserSession browser;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void secondIdenticalWeatherCallIsACacheHit() {
		Map<String, Object> arguments = Map.of("city", "Cache Town");
		double hits = count("agent.tool.cache.hits", "get_weather");
		long executions = this.callCounting.count("get_weather");
		try (McpSession session = McpSession.open(this.port)) {
			String first = session.succeed("get_weather", arguments);
			String second = session.succeed("get_weather", arguments);
			assertThat(second).isEqualTo(first);
		}
		assertThat(count("agent.tool.cache.hits", "get_weather")).isEqualTo(hits + 1);
		assertThat(this.observer.outcomes("get_weather", arguments)).containsExactly(CallOutcome.SUCCEEDED,
				CallOutcome.CACHED);
		assertThat(this.callCounting.count("get_weather")).isEqualTo(executions + 1);
	}

	@Test
	void weatherCacheIsSharedBetweenSessions() {
		// get_weather is cached with scope global in application.yml: the weather is the
		// same for everyone.
		Map<String, Object> arguments = Map.of("city", "Shared Town");
		try (McpSession first = McpSession.open(this.port); McpSession second = McpSession.open(this.port)) {
			first.succeed("get_weather", arguments);
			second.succeed("get_weather", arguments);
		}
		assertThat(this.observer.outcomes("get_weather", arguments)).containsExactly(CallOutcome.SUCCEEDED,
				CallOutcome.CACHED);
	}

	@Test
	void sixthWeatherCallWithinAMinuteIsRateLimitedInThatSessionOnly() {
		double rejections = count("agent.tool.ratelimit.rejections", "get_weather");
		try (McpSession session = McpSession.open(this.port)) {
			// Distinct cities: a cache hit would not use a permit.
			for (int call = 1; call <= 5; call++) {
				session.succeed("get_weather", Map.of("city", "Limit Town " + call));
			}
			String rejected = session.fail("get_weather", Map.of("city", "Limit Town 6"));
			assertThat(rejected).startsWith("Tool 'get_weather' is rate limited (5 calls per 1m per session)")
				.contains("retry in about");
		}
		assertThat(this.observer.outcomes("get_weather", Map.of("city", "Limit Town 6")))
			.containsExactly(CallOutcome.RATE_LIMITED);
		assertThat(count("agent.tool.ratelimit.rejections", "get_weather")).isEqualTo(rejections + 1);
		try (McpSession other = McpSession.open(this.port)) {
			other.succeed("get_weather", Map.of("city", "Limit Town 7"));
		}
	}

	@Test
	void flakyExchangeRateSucceedsThroughARetry() {
		long requests = this.exchangeRates.requests();
		// Every other request fails and every call ends on a success, so the next request
		// is a failing one.
		assertThat(requests % 2).isZero();
		double retries = count("agent.tool.retries", "get_exchange_rate");
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.succeed("get_exchange_rate", Map.of("from", "eur", "to", "usd")))
				.matches("EUR/USD \\d+\\.\\d\\d");
		}
		assertThat(this.exchangeRates.requests()).isEqualTo(requests + 2);
		assertThat(count("agent.tool.retries", "get_exchange_rate")).isEqualTo(retries + 1);
	}

	@Test
	void slowReportTimesOutAfterTwoSeconds() {
		Map<String, Object> slow = Map.of("topic", "slow sales", "seconds", 5);
		try (McpSession session = McpSession.open(this.port)) {
			// The outcome, not a wall-clock window: the timeout layer abandoned the call
			// with its 2 s limit
			String error = session.fail("generate_report", slow);
			assertThat(error)
				.isEqualTo("Tool 'generate_report' timed out after 2s; try again later or with a smaller request");
			assertThat(session.succeed("generate_report", Map.of("topic", "quick sales", "seconds", 0)))
				.isEqualTo("Report on quick sales: all figures nominal");
		}
		assertThat(this.observer.outcomes("generate_report", slow)).containsExactly(CallOutcome.TIMED_OUT);
	}

	@Test
	void crashedBrowserIsRestartedOnceAndTheCallRecovers() {
		double recoveries = count("agent.tool.crash.recoveries", "browse");
		int browserProcess = this.browser.generation();
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("crash_browser", Map.of());
			assertThat(session.succeed("browse", Map.of("url", "https://example.org/crash")))
				.isEqualTo("Title of https://example.org/crash (browser #" + (browserProcess + 1) + ")");
			assertThat(count("agent.tool.crash.recoveries", "browse")).isEqualTo(recoveries + 1);
			assertThat(session.succeed("browse", Map.of("url", "https://example.org/after")))
				.isEqualTo("Title of https://example.org/after (browser #" + (browserProcess + 1) + ")");
		}
		assertThat(count("agent.tool.crash.recoveries", "browse")).isEqualTo(recoveries + 1);
	}

	@Test
	void writeFileInvalidatesTheCachedRead() throws IOException {
		Path file = workspace.resolve("invalidation/notes.txt");
		Files.createDirectories(file.getParent());
		Files.writeString(file, "first");
		Map<String, Object> read = Map.of("path", "invalidation/notes.txt");
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.succeed("read_file", read)).isEqualTo("first");
			// Changed behind the app's back: the cached result is still served.
			Files.writeString(file, "changed on disk");
			assertThat(session.succeed("read_file", read)).isEqualTo("first");
			session.succeed("write_file", Map.of("path", "invalidation/notes.txt", "content", "second"));
			assertThat(session.succeed("read_file", read)).isEqualTo("second");
		}
		assertThat(this.observer.outcomes("read_file", read)).containsExactly(CallOutcome.SUCCEEDED, CallOutcome.CACHED,
				CallOutcome.SUCCEEDED);
	}

	private double count(String counter, String tool) {
		Counter found = this.meterRegistry.find(counter).tag("agent.tool.name", tool).counter();
		return (found != null) ? found.count() : 0;
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class RecordingObserverConfiguration {

		@Bean
		RecordingObserver recordingObserver() {
			return new RecordingObserver();
		}

	}

}
