package dev.agentmiddleware.autoconfigure.agent;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.ErrorRecoveryMiddleware;
import dev.agentmiddleware.agent.LoopGuard;
import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcThreadStore;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.todo.TodoMiddleware;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AgentAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class, AgentAutoConfiguration.class));

	@Test
	void contributedToolsJoinTheRegistryAndTheSpringAiCallbacksWithTheirOwner() {
		this.contextRunner.run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.tools()).extracting(RegisteredTool::name)
				.containsExactly("read_todos", "update_todo", "write_todos");
			assertThat(registry.get("write_todos").beanName()).isEqualTo("agent-middleware:todo");
			assertThat(registry.get("write_todos").descriptor().safety()).isEqualTo(SafetyLevel.SAFE);
			assertThat(context.getBean(AgentToolCallbackProvider.class).getToolCallbacks())
				.extracting((callback) -> callback.getToolDefinition().name())
				.containsExactly("read_todos", "update_todo", "write_todos");
		});
	}

	@Test
	void configurationMayNameContributedTools() {
		this.contextRunner
			.withBean(ToolNameReferences.class,
					() -> ToolNameReferences.of("agent.middleware.rate-limit.tools", List.of("write-todos")))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void userMiddlewareJoinsAfterTheBuiltInsInOrder() {
		this.contextRunner.withBean("late", AgentMiddleware.class, () -> new Late())
			.withBean("early", AgentMiddleware.class, () -> new Early())
			.run((context) -> assertThat(context.getBean(AgentRuns.class).middleware().middleware())
				.extracting(AgentMiddleware::name)
				.containsExactly("todo", "error-recovery", "early", "late"));
	}

	@Test
	void aUserMiddlewaresToolWinsANameClashAndIsRegistered() {
		ExecutableTool ownRead = new ExecutableTool(ToolDescriptor.builder("read_todos").build(), (call) -> "mine");
		AgentMiddleware own = new AgentMiddleware() {

			@Override
			public String name() {
				return "own";
			}

			@Override
			public List<ExecutableTool> tools() {
				return List.of(ownRead);
			}

		};
		this.contextRunner.withBean("own", AgentMiddleware.class, () -> own)
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("read_todos").beanName())
				.isEqualTo("agent-middleware:own"));
	}

	@Test
	void eachBuiltInCanBeSwitchedOff() {
		this.contextRunner
			.withPropertyValues("agent.middleware.todo.enabled=false", "agent.middleware.error-recovery.enabled=false",
					"agent.middleware.loop-guard.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(TodoMiddleware.class)
					.doesNotHaveBean(ErrorRecoveryMiddleware.class);
				assertThat(context.getBean(AgentRuns.class).middleware().middleware()).isEmpty();
				assertThat(context.getBean(LoopGuard.class).policy()).isEqualTo(LoopGuardPolicy.UNLIMITED);
				assertThat(context.getBean(AgentToolRegistry.class).tools()).isEmpty();
			});
	}

	@Test
	void loopGuardLimitsComeFromProperties() {
		this.contextRunner
			.withPropertyValues("agent.middleware.loop-guard.max-iterations=7",
					"agent.middleware.loop-guard.max-tool-calls-per-run=11",
					"agent.middleware.loop-guard.max-tool-calls-per-thread=99",
					"agent.middleware.loop-guard.max-repeated-calls=2")
			.run((context) -> assertThat(context.getBean(LoopGuard.class).policy())
				.isEqualTo(new LoopGuardPolicy(7, 11, 99, 2)));
	}

	@Test
	void thePerThreadBudgetJoinsEveryChainAndCountsMcpCallsOfASessionButNotTheCallsOfAConversation() {
		this.contextRunner.withPropertyValues("agent.middleware.loop-guard.max-tool-calls-per-thread=2")
			.run((context) -> {
				RegisteredTool readTodos = context.getBean(AgentToolRegistry.class).get("read_todos");
				assertThat(readTodos.pipeline().layers()).contains("loop-guard");
				for (int call = 0; call < 3; call++) {
					// A Spring AI call is left to the loop guard of its run: the chain
					// does not count it
					assertThat(todoCallback(context, "read_todos").call("{}", thread("session-1")))
						.isEqualTo("{\"todos\":[]}");
				}
				ToolPipeline pipeline = readTodos.pipeline();
				pipeline.call(mcpCall(readTodos, "session-1"));
				pipeline.call(mcpCall(readTodos, "session-1"));
				assertThatExceptionOfType(ToolRateLimitedException.class)
					.isThrownBy(() -> pipeline.call(mcpCall(readTodos, "session-1")))
					.withMessageContaining("budget of 2 tool calls")
					.satisfies((ex) -> assertThat(ex.decidedBy()).isEqualTo("loop-guard"));
				assertThat(context.getBean(ThreadStore.class).load("session-1").get(LoopGuard.THREAD_TOOL_CALLS_KEY))
					.isEqualTo(2L);
			});
	}

	@Test
	void withoutAPerThreadLimitTheBudgetStaysOutOfTheChain() {
		this.contextRunner
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("read_todos").pipeline().layers())
				.doesNotContain("loop-guard"));
	}

	private static ToolInvocation mcpCall(RegisteredTool tool, String sessionId) {
		return tool.unboundInvocation("{}").sessionId(sessionId).source(InvocationSource.MCP).build();
	}

	@Test
	void threadsAreKeptInMemoryWithoutADataSource() {
		this.contextRunner
			.run((context) -> assertThat(context).getBean(ThreadStore.class).isInstanceOf(InMemoryThreadStore.class));
	}

	@Test
	void todosSurviveAnApplicationRestartOnTheSameDatabase() {
		String url = "jdbc:h2:file:" + Path.of("target", "threads-" + UUID.randomUUID()).toAbsolutePath();
		ApplicationContextRunner jdbcRunner = this.contextRunner
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + url);
		String todos = "{\"todos\":[{\"id\":\"1\",\"text\":\"Survive a restart\",\"status\":\"pending\"}]}";
		jdbcRunner.run((context) -> {
			assertThat(context).getBean(ThreadStore.class).isInstanceOf(JdbcThreadStore.class);
			assertThat(todoCallback(context, "write_todos").call(todos, thread("conversation-9")))
				.contains("Survive a restart");
		});
		jdbcRunner.run((context) -> {
			assertThat(todoCallback(context, "read_todos").call("{}", thread("conversation-9")))
				.isEqualTo("{\"todos\":[{\"id\":\"1\",\"text\":\"Survive a restart\",\"status\":\"pending\"}]}");
			assertThat(todoCallback(context, "read_todos").call("{}", thread("conversation-10")))
				.isEqualTo("{\"todos\":[]}");
		});
	}

	private static ToolContext thread(String id) {
		return new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, id));
	}

	private static ToolCallback todoCallback(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("No callback " + name);
	}

	@Order(2)
	static class Late implements AgentMiddleware {

		@Override
		public String name() {
			return "late";
		}

	}

	@Order(1)
	static class Early implements AgentMiddleware {

		@Override
		public String name() {
			return "early";
		}

	}

}
