package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop guard's per-thread tool-call budget over MCP, with the MCP Java SDK's client:
 * the MCP session is the thread, every tool call of the session counts, whichever tool,
 * and the call over the budget is an error result naming the limit, counted as
 * {@code rate_limited}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.loop-guard.max-tool-calls-per-thread=3")
class ThreadBudgetMcpIntegrationTests {

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void aSessionRunsThreeCallsOfAnyToolsAndTheFourthIsAnErrorResultNamingTheBudget() {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("write_todos",
					Map.of("todos", List.of(Map.of("id", "1", "text", "Plan", "status", "pending"))));
			session.succeed("read_todos", Map.of());
			session.succeed("get_weather", Map.of("city", "Budget Town"));
			assertThat(session.fail("read_todos", Map.of())).startsWith("Tool 'read_todos' is rate limited (this "
					+ "session's budget of 3 tool calls is used up: loop-guard max-tool-calls-per-thread)");
			assertThat(session.fail("get_weather", Map.of("city", "Budget Town")))
				.as("a call the cache would answer is refused too: the budget sits outside the cache")
				.contains("budget of 3 tool calls");
		}
		assertThat(rateLimited("read_todos")).isOne();
		assertThat(rateLimited("get_weather")).isOne();
	}

	@Test
	void anotherSessionHasABudgetOfItsOwn() {
		try (McpSession first = McpSession.open(this.port); McpSession second = McpSession.open(this.port)) {
			for (int call = 0; call < 3; call++) {
				first.succeed("read_todos", Map.of());
			}
			first.fail("read_todos", Map.of());
			for (int call = 0; call < 3; call++) {
				assertThat(second.succeed("read_todos", Map.of())).isEqualTo("{\"todos\":[]}");
			}
		}
	}

	private long rateLimited(String tool) {
		Timer timer = this.meters.find("agent.tool.call")
			.tags("agent.tool.name", tool, "agent.tool.outcome", "rate_limited")
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

}
