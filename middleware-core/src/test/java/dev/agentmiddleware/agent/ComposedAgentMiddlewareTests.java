package dev.agentmiddleware.agent;

import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.agent.AgentMiddleware.AgentMessage;
import dev.agentmiddleware.agent.AgentMiddleware.ComposedAgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ComposedAgentMiddlewareTests {

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(ComposedAgentMiddleware.class, Level.WARN);

	private final List<String> calls = new ArrayList<>();

	@Test
	void mergesToolsAndTheLaterMiddlewareWinsANameConflictWithAWarningNamingBoth() {
		ExecutableTool firstSearch = tool("search", "first");
		ExecutableTool secondSearch = tool("search", "second");
		ComposedAgentMiddleware composed = AgentMiddleware
			.compose(List.of(new Recording("alpha", List.of(firstSearch, tool("plan", "alpha"))),
					new Recording("beta", List.of(secondSearch, tool("notes", "beta")))));
		assertThat(composed.tools()).extracting((tool) -> tool.descriptor().name())
			.containsExactly("plan", "search", "notes");
		assertThat(composed.tools()).contains(secondSearch).doesNotContain(firstSearch);
		assertThat(this.capturedLog.events()).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).contains("'beta'").contains("'alpha'").contains("'search'");
		});
	}

	@Test
	void runsBeforeHooksInOrderAndAfterHooksInOrder() {
		ComposedAgentMiddleware composed = AgentMiddleware.compose(
				List.of(new Recording("a", List.of()), new Recording("b", List.of()), new Recording("c", List.of())));
		AgentRun run = AgentRun.start("thread-1", composed, new InMemoryThreadStore(),
				new LoopGuard(LoopGuardPolicy.UNLIMITED, new InMemoryThreadStore()));
		run.beginIteration(List.of(AgentMessage.of(AgentMessage.Role.USER, "hi")));
		run.endIteration(new IterationResult(AgentMessage.of(AgentMessage.Role.ASSISTANT, "hello"), List.of()));
		assertThat(this.calls).containsExactly("a.before#1", "b.before#1", "c.before#1", "a.after#1", "b.after#1",
				"c.after#1");
	}

	@Test
	void aThrowingHookFailsTheIterationNamingTheMiddlewareAndLaterHooksDoNotRun() {
		AgentMiddleware broken = new AgentMiddleware() {

			@Override
			public String name() {
				return "broken";
			}

			@Override
			public void beforeIteration(IterationContext context) {
				throw new IllegalStateException("no budget left");
			}

		};
		ComposedAgentMiddleware composed = AgentMiddleware
			.compose(List.of(new Recording("a", List.of()), broken, new Recording("c", List.of())));
		AgentRun run = AgentRun.start("thread-1", composed, new InMemoryThreadStore(),
				new LoopGuard(LoopGuardPolicy.UNLIMITED, new InMemoryThreadStore()));
		assertThatExceptionOfType(AgentMiddlewareException.class).isThrownBy(() -> run.beginIteration(List.of()))
			.withMessage("Agent middleware 'broken' failed in beforeIteration of iteration 1: "
					+ "IllegalStateException: no budget left")
			.satisfies((ex) -> assertThat(ex.middleware()).isEqualTo("broken"));
		assertThat(this.calls).containsExactly("a.before#1");
	}

	@Test
	void hooksSeeTheThreadTheIterationNumberAndTheInput() {
		List<IterationContext> seen = new ArrayList<>();
		AgentMiddleware spy = new AgentMiddleware() {

			@Override
			public String name() {
				return "spy";
			}

			@Override
			public void beforeIteration(IterationContext context) {
				seen.add(context);
			}

		};
		AgentRun run = AgentRun.start("thread-7", AgentMiddleware.compose(List.of(spy)), new InMemoryThreadStore(),
				new LoopGuard(LoopGuardPolicy.UNLIMITED, new InMemoryThreadStore()));
		for (int i = 0; i < 2; i++) {
			run.beginIteration(List.of(AgentMessage.of(AgentMessage.Role.USER, "step " + i)));
			run.endIteration(new IterationResult(null, List.of()));
		}
		assertThat(seen).extracting(IterationContext::iteration).containsExactly(1, 2);
		assertThat(seen).extracting(IterationContext::threadId).containsOnly("thread-7");
		assertThat(seen.get(1).messages()).extracting(AgentMessage::text).containsExactly("step 1");
	}

	private static ExecutableTool tool(String name, String result) {
		return new ExecutableTool(ToolDescriptor.builder(name).build(), (invocation) -> result);
	}

	private final class Recording implements AgentMiddleware {

		private final String name;

		private final List<ExecutableTool> tools;

		Recording(String name, List<ExecutableTool> tools) {
			this.name = name;
			this.tools = tools;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public List<ExecutableTool> tools() {
			return this.tools;
		}

		@Override
		public void beforeIteration(IterationContext context) {
			ComposedAgentMiddlewareTests.this.calls.add(this.name + ".before#" + context.iteration());
		}

		@Override
		public void afterIteration(IterationContext context, IterationResult result) {
			ComposedAgentMiddlewareTests.this.calls.add(this.name + ".after#" + context.iteration());
		}

	}

}
