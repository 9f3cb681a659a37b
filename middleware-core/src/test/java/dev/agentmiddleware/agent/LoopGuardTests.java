package dev.agentmiddleware.agent;

import java.util.List;

import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun.ToolCallDecision;
import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;
import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LoopGuardTests {

	private final ThreadStore store = new InMemoryThreadStore();

	@Test
	void theLastAllowedIterationAnswersEveryPendingCallAndEndsTheRun() {
		AgentRun run = run(new LoopGuardPolicy(2, 0, 0, 0));
		run.beginIteration(List.of());
		assertThat(run.decide(List.of(call("c1", "search", "{}")))).allMatch(ToolCallDecision::runs);
		run.endIteration(new IterationResult(null, List.of()));
		run.beginIteration(List.of());
		List<ToolCallDecision> decisions = run
			.decide(List.of(call("c2", "search", "{\"q\":1}"), call("c3", "fetch", "{}")));
		assertThat(decisions).extracting((decision) -> decision.call().id()).containsExactly("c2", "c3");
		assertThat(decisions).allSatisfy((decision) -> {
			assertThat(decision.runs()).isFalse();
			assertThat(decision.endsRun()).isTrue();
			assertThat(decision.answer()).contains("limit of 2 iterations").contains(decision.call().name());
		});
	}

	@Test
	void thePerRunLimitAnswersTheParallelCallsOverItAndRunsTheOthers() {
		AgentRun run = run(new LoopGuardPolicy(0, 3, 0, 0));
		run.beginIteration(List.of());
		assertThat(run.decide(List.of(call("c1", "a", "{}"), call("c2", "b", "{}")))).allMatch(ToolCallDecision::runs);
		run.endIteration(new IterationResult(null, List.of()));
		run.beginIteration(List.of());
		List<ToolCallDecision> decisions = run
			.decide(List.of(call("c3", "c", "{}"), call("c4", "d", "{}"), call("c5", "e", "{}")));
		assertThat(decisions).extracting(ToolCallDecision::runs).containsExactly(true, false, false);
		assertThat(decisions.get(1).answer()).contains("limit of 3 tool calls").contains("'d'");
		assertThat(decisions.get(2).endsRun()).isFalse();
		assertThat(run(new LoopGuardPolicy(0, 3, 0, 0)).decide(List.of(call("c1", "a", "{}"))))
			.as("a new run starts from zero")
			.allMatch(ToolCallDecision::runs);
	}

	@Test
	void thePerThreadLimitHoldsAcrossRunsThroughTheThreadStore() {
		LoopGuardPolicy policy = new LoopGuardPolicy(0, 0, 3, 0);
		assertThat(run(policy).decide(List.of(call("c1", "a", "{}"), call("c2", "b", "{}"))))
			.allMatch(ToolCallDecision::runs);
		List<ToolCallDecision> second = run(policy).decide(List.of(call("c3", "a", "{}"), call("c4", "b", "{}")));
		assertThat(second).extracting(ToolCallDecision::runs).containsExactly(true, false);
		assertThat(second.get(1).answer()).contains("conversation reached its limit of 3 tool calls");
		assertThat(this.store.load("t1").get(LoopGuard.THREAD_TOOL_CALLS_KEY)).isEqualTo(3L);
		assertThat(
				AgentRun.start("t2", AgentMiddleware.compose(List.of()), this.store, new LoopGuard(policy, this.store))
					.decide(List.of(call("c1", "a", "{}"))))
			.as("another thread")
			.allMatch(ToolCallDecision::runs);
	}

	@Test
	void theNthCallOfOneToolWithTheSameCanonicalArgumentsIsAnsweredInsteadOfRun() {
		AgentRun run = run(new LoopGuardPolicy(0, 0, 0, 3));
		List<ToolCallDecision> decisions = run.decide(List.of(call("c1", "search", "{\"q\":\"x\",\"page\":1}"),
				call("c2", "search", "{\"page\":1, \"q\":\"x\"}"), call("c3", "search", "{\"q\":\"y\",\"page\":1}"),
				call("c4", "search", "{ \"q\" : \"x\", \"page\" : 1 }"),
				call("c5", "other", "{\"q\":\"x\",\"page\":1}")));
		assertThat(decisions).extracting(ToolCallDecision::runs).containsExactly(true, true, true, false, true);
		assertThat(decisions.get(3).answer()).contains("'search'").contains("same arguments 3 times");
	}

	private AgentRun run(LoopGuardPolicy policy) {
		return AgentRun.start("t1", AgentMiddleware.compose(List.of()), this.store, new LoopGuard(policy, this.store));
	}

	private static ToolCallRequest call(String id, String name, String arguments) {
		return new ToolCallRequest(id, name, arguments);
	}

}
