package dev.agentmiddleware.test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ToolHarnessTests {

	private static final ExecutableTool ECHO = new ExecutableTool(
			ToolDescriptor.builder("echo").safety(SafetyLevel.SAFE).build(), (invocation) -> invocation.arguments());

	@Test
	void chainRunsTheChosenMiddlewareAroundAPlainToolAndTheObserverSeesTheCallsItRefused() throws Exception {
		RateLimitMiddleware rateLimit = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(1, Duration.ofHours(1)))
			.build();
		try (ToolHarness echo = ToolHarness.chain(ECHO, rateLimit)) {
			assertThat(echo.layers()).containsExactly("rate-limit", "echo");
			assertThat(echo.call(Map.of("text", "hi"))).isEqualTo(Map.of("text", "hi"));
			assertThatExceptionOfType(ToolRateLimitedException.class)
				.isThrownBy(() -> echo.call(Map.of("text", "again")));
			assertThat(echo.observer().outcomes("echo")).containsExactly(CallOutcome.SUCCEEDED,
					CallOutcome.RATE_LIMITED);
			ToolCallRecord refused = echo.observer().lastRecord("echo");
			assertThat(refused.decidedBy()).isEqualTo("rate-limit");
			assertThat(refused.error()).isInstanceOf(ToolRateLimitedException.class);
			assertThat(refused.invocation().arguments()).isEqualTo(Map.of("text", "again"));
		}
	}

	@Test
	void chainReadsJsonArgumentsIntoJsonValues() throws Exception {
		try (ToolHarness echo = ToolHarness.chain(ECHO)) {
			assertThat(echo.call("{\"text\":\"hi\",\"times\":2,\"loud\":true}"))
				.isEqualTo(Map.of("text", "hi", "times", 2, "loud", true));
			assertThat(echo.call("")).isEqualTo(Map.of());
		}
	}

	@Test
	void attemptReturnsTheRecordOfAFailedCallWithItsFailure() {
		IllegalStateException failure = new IllegalStateException("disk full");
		ExecutableTool failing = new ExecutableTool(ToolDescriptor.builder("save").safety(SafetyLevel.SAFE).build(),
				(invocation) -> {
					throw failure;
				});
		try (ToolHarness save = ToolHarness.chain(failing)) {
			ToolCallRecord record = save.attempt(Map.of("name", "notes"));
			assertThat(record.outcome()).isEqualTo(CallOutcome.FAILED);
			assertThat(record.error()).isSameAs(failure);
			assertThat(record.result()).isNull();
			assertThat(record.decidedBy()).isNull();
			assertThatIllegalStateException().isThrownBy(() -> save.call(Map.of())).isSameAs(failure);
		}
	}

	@Test
	void agentToolGetsTheBuiltInsTheBootModuleConfiguresForTheSameProperties() throws Exception {
		SearchTools tools = new SearchTools();
		try (ToolHarness search = ToolHarness.agentTool(tools)
			.tool("search")
			.properties("agent.middleware.rate-limit.tools.search.limit-for-period=1",
					"agent.middleware.rate-limit.tools.search.limit-refresh-period=1h")
			.build()) {
			assertThat(search.layers()).contains("rate-limit").last().isEqualTo("search");
			assertThat(search.call("{\"query\":\"a\"}")).isEqualTo("found a");
			assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> search.call("{\"query\":\"b\"}"))
				.withMessageStartingWith("Tool 'search' is rate limited (1 call per 1h");
			ToolCallRecord refused = search.attempt(Map.of("query", "c"));
			assertThat(refused.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
			assertThat(refused.decidedBy()).isEqualTo("rate-limit");
			assertThat(tools.calls).hasValue(1);
		}
	}

	@Test
	void agentToolBindsJsonArgumentsAndRefusesInvalidOnesAsAnApplicationDoes() throws Exception {
		try (ToolHarness page = ToolHarness.agentTool(new SearchTools()).tool("page").build()) {
			assertThat(page.call("{\"query\":\"a\",\"size\":3}")).isEqualTo("a:3");
			assertThat(page.call(Map.of("query", "b", "size", 4))).isEqualTo("b:4");
			ToolCallRecord invalid = page.attempt("{\"query\":\"a\",\"size\":\"many\"}");
			assertThat(invalid.outcome()).isEqualTo(CallOutcome.INVALID_ARGUMENTS);
			assertThat(invalid.error()).isInstanceOf(InvalidToolArgumentsException.class).hasMessageContaining("size");
		}
	}

	@Test
	void agentToolWithSeveralToolsAsksWhichOne() {
		assertThatIllegalStateException().isThrownBy(() -> ToolHarness.agentTool(new SearchTools()).build())
			.withMessageContaining("the tools [")
			.withMessageContaining("search")
			.withMessageContaining("page")
			.withMessageEndingWith("choose one with tool(name)");
		assertThatIllegalStateException()
			.isThrownBy(() -> ToolHarness.agentTool(new SearchTools()).tool("lookup").build())
			.withMessageContaining("No tool 'lookup'");
	}

	@Test
	void agentToolBeansReachTheContext() throws Exception {
		try (ToolHarness search = ToolHarness.agentTool(new SearchTools()).tool("search").build()) {
			search.call(Map.of("query", "a"));
			assertThat(search.bean(RecordingToolCallObserver.class)).isSameAs(search.observer());
			assertThat(search.observer().records()).hasSize(1);
		}
	}

	public static class SearchTools {

		final AtomicInteger calls = new AtomicInteger();

		@AgentTool(description = "Searches", safety = SafetyLevel.SAFE, readOnly = true)
		public String search(String query) {
			this.calls.incrementAndGet();
			return "found " + query;
		}

		@AgentTool(description = "Searches one page", safety = SafetyLevel.SAFE, readOnly = true)
		public String page(String query, int size) {
			return query + ":" + size;
		}

	}

}
