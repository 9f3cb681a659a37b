package dev.agentmiddleware.autoconfigure.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every shared rate-limit store shows with two application contexts (two instances)
 * on it, each with the {@code search} tool of
 * {@link ToolRateLimitAutoConfigurationTests.SearchConfiguration} limited to 5 calls per
 * hour, and the helpers to call that tool as Spring AI does, in a session.
 */
final class TwoInstances {

	private TwoInstances() {
	}

	/**
	 * Ten calls alternating between the instances: exactly the first five run.
	 */
	static void shareALimitOfFive(ApplicationContext a, ApplicationContext b) {
		ToolCallback onA = callback(a, "search");
		ToolCallback onB = callback(b, "search");
		List<String> results = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			results.add(((i % 2 == 0) ? onA : onB).call("{\"query\":\"q" + i + "\"}", session("s" + i)));
		}
		assertThat(results.subList(0, 5)).allSatisfy((result) -> assertThat(result).startsWith("found"));
		assertThat(results.subList(5, 10)).allSatisfy((result) -> assertThat(result)
			.startsWith("Tool 'search' is rate limited (5 calls per 1h); retry in about ")
			.matches(".*retry in about (59m\\d+s|1h)$"));
		assertThat(executions(a) + executions(b)).isEqualTo(5);
	}

	/**
	 * Forty calls at once on eight threads, alternating between the instances: exactly
	 * five run.
	 */
	static void runExactlyTheLimitOfConcurrentCalls(ApplicationContext a, ApplicationContext b) throws Exception {
		ToolCallback onA = callback(a, "search");
		ToolCallback onB = callback(b, "search");
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Callable<String>> calls = new ArrayList<>();
			for (int i = 0; i < 40; i++) {
				ToolCallback target = (i % 2 == 0) ? onA : onB;
				calls.add(() -> target.call("{\"query\":\"x\"}", session("s")));
			}
			List<String> results = new ArrayList<>();
			for (Future<String> result : pool.invokeAll(calls)) {
				results.add(result.get());
			}
			assertThat(results).filteredOn((result) -> result.equals("found x")).hasSize(5);
			assertThat(results).filteredOn((result) -> !result.equals("found x"))
				.hasSize(35)
				.allSatisfy((result) -> assertThat(result).startsWith("Tool 'search' is rate limited (5 calls"));
			assertThat(executions(a) + executions(b)).isEqualTo(5);
		}
		finally {
			pool.shutdownNow();
		}
	}

	static ToolCallback callback(ApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	static ToolContext session(String sessionId) {
		return new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, sessionId));
	}

	static int executions(ApplicationContext context) {
		return context.getBean(ToolRateLimitAutoConfigurationTests.SearchTools.class).executions();
	}

}
