package dev.agentmiddleware.it;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.agentmiddleware.autoconfigure.mcp.McpTransportClock;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Idle sessions expire and the number of live sessions is capped, with a clock the test
 * moves instead of sleeping.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpSessionLimitsIntegrationTests.TestClock.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "agent.middleware.mcp.transport.max-sessions=2",
				"agent.middleware.mcp.transport.session-idle-timeout=30m" })
class McpSessionLimitsIntegrationTests {

	private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

	@LocalServerPort
	int port;

	@Autowired
	MovableClock clock;

	@Test
	void idleSessionsExpireAndFullServerRefusesNewOnesClearly() throws Exception {
		RawMcpHttp mcp = new RawMcpHttp(this.port);
		String first = mcp.initialize();
		this.clock.advance(Duration.ofMinutes(20));
		String second = mcp.initialize();

		HttpResponse<String> refused = mcp.post(RawMcpHttp.INITIALIZE);
		assertThat(refused.statusCode()).isEqualTo(503);
		JsonNode error = RawMcpHttp.error(refused);
		assertThat(error.get("code").asInt()).isEqualTo(-32000);
		assertThat(error.get("message").asString()).contains("Too many sessions").contains("2");

		this.clock.advance(Duration.ofMinutes(15));
		// The first session has been idle for 35 minutes, the second for 15
		HttpResponse<String> expired = mcp.post(mcp.sessionHeaders(first), TOOLS_LIST);
		assertThat(expired.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.error(expired).get("code").asInt()).isEqualTo(-32001);
		assertThat(mcp.post(mcp.sessionHeaders(second), TOOLS_LIST).statusCode()).isEqualTo(200);

		String third = mcp.initialize();
		assertThat(third).isNotEqualTo(first).isNotEqualTo(second);
		assertThat(mcp.post(RawMcpHttp.INITIALIZE).statusCode()).isEqualTo(503);

		this.clock.advance(Duration.ofMinutes(31));
		// Every session is idle past the timeout: a new client gets in, the old ones are
		// gone
		String fourth = mcp.initialize();
		assertThat(mcp.post(mcp.sessionHeaders(fourth), TOOLS_LIST).statusCode()).isEqualTo(200);
		assertThat(mcp.post(mcp.sessionHeaders(second), TOOLS_LIST).statusCode()).isEqualTo(404);
	}

	static final class MovableClock extends Clock {

		private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class TestClock {

		@Bean
		MovableClock movableClock() {
			return new MovableClock();
		}

		@Bean
		McpTransportClock mcpTransportClock(MovableClock clock) {
			return () -> clock;
		}

	}

}
