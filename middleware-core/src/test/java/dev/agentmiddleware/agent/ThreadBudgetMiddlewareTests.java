package dev.agentmiddleware.agent;

import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;

import dev.agentmiddleware.agent.AgentRun.ToolCallDecision;

import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ThreadBudgetMiddlewareTests {

	private static final ToolDescriptor READ_FILE = ToolDescriptor.builder("read_file").readOnly(true).build();

	private final ThreadStore store = new InMemoryThreadStore();

	private final AtomicInteger executions = new AtomicInteger();

	private final ToolHandler tool = (invocation) -> "ran " + this.executions.incrementAndGet();

	@Test
	void mcpCallsOfOneSessionRunUpToTheBudgetAndTheNextIsRateLimitedNamingTheLimit() throws Exception {
		ToolHandler handler = guard(3).threadBudget().wrap(READ_FILE, this.tool);
		for (int call = 1; call <= 3; call++) {
			assertThat(handler.handle(mcp("session-1"))).isEqualTo("ran " + call);
		}
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(mcp("session-1")))
			.satisfies((ex) -> {
				assertThat(ex).hasMessage("Tool 'read_file' is rate limited (this session's budget of 3 tool calls "
						+ "is used up: loop-guard max-tool-calls-per-thread)");
				assertThat(ex.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
				assertThat(ex.decidedBy()).isEqualTo("loop-guard");
				assertThat(ex.getMessage()).doesNotContain("session-1");
			});
		assertThat(this.executions).hasValue(3);
		assertThat(this.store.load("session-1").get(LoopGuard.THREAD_TOOL_CALLS_KEY)).as("a refusal is not counted")
			.isEqualTo(3L);
		assertThat(handler.handle(mcp("session-2"))).as("another session has a budget of its own").isEqualTo("ran 4");
	}

	@Test
	void anMcpSessionAndAnAgentRunOfTheSameThreadShareOneCount() throws Exception {
		LoopGuard guard = guard(3);
		AgentRun run = AgentRun.start("thread-1", AgentMiddleware.compose(List.of()), this.store, guard);
		assertThat(run.decide(List.of(new ToolCallRequest("c1", "read_file", "{}")))).allMatch(ToolCallDecision::runs);
		ToolHandler handler = guard.threadBudget().wrap(READ_FILE, this.tool);
		handler.handle(mcp("thread-1"));
		List<ToolCallDecision> decisions = run.decide(List.of(new ToolCallRequest("c2", "read_file", "{\"a\":1}"),
				new ToolCallRequest("c3", "read_file", "{\"a\":2}")));
		assertThat(decisions).extracting(ToolCallDecision::runs).containsExactly(true, false);
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(mcp("thread-1")));
		assertThat(this.store.load("thread-1").get(LoopGuard.THREAD_TOOL_CALLS_KEY)).isEqualTo(3L);
	}

	@Test
	void callsNotFromMcpAreLeftToTheirRunAndCallsWithoutASessionHaveNoBudget() throws Exception {
		ToolHandler handler = guard(1).threadBudget().wrap(READ_FILE, this.tool);
		for (int call = 0; call < 3; call++) {
			// A ChatClient run's calls reach the chain too, already counted when the run
			// decided them.
			handler.handle(ToolInvocation.builder(READ_FILE)
				.sessionId("conversation-1")
				.source(InvocationSource.SPRING_AI)
				.build());
			handler.handle(ToolInvocation.builder(READ_FILE).sessionId("conversation-1").build());
			handler.handle(ToolInvocation.builder(READ_FILE).source(InvocationSource.MCP).build());
		}
		assertThat(this.executions).hasValue(9);
		assertThat(this.store.load("conversation-1").get(LoopGuard.THREAD_TOOL_CALLS_KEY)).isNull();
	}

	@Test
	void withoutAPerThreadLimitTheMiddlewareStaysOutOfTheChain() {
		OrderedMiddleware budget = guard(0).threadBudget();
		assertThat(budget.wrap(READ_FILE, this.tool)).isSameAs(this.tool);
		assertThat(budget.order()).isEqualTo(BuiltInOrder.THREAD_BUDGET);
		assertThat(budget.name()).isEqualTo("loop-guard");
	}

	private LoopGuard guard(int maxToolCallsPerThread) {
		return new LoopGuard(new LoopGuardPolicy(0, 0, maxToolCallsPerThread, 0), this.store);
	}

	private static ToolInvocation mcp(String sessionId) {
		return ToolInvocation.builder(READ_FILE).sessionId(sessionId).source(InvocationSource.MCP).build();
	}

}
