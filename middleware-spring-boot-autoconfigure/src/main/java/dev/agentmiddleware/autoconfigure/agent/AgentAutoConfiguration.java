package dev.agentmiddleware.autoconfigure.agent;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.ComposedAgentMiddleware;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.ErrorRecoveryMiddleware;
import dev.agentmiddleware.agent.LoopGuard;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolContributor;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.todo.TodoMiddleware;
import dev.agentmiddleware.todo.TodoMiddleware.TodoLimits;
import dev.agentmiddleware.tool.ExecutableTool;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Agent-level middleware: the built-in todo and error-recovery middleware (each switched off with its
 * {@code enabled} property), the loop guard (with its per-thread budget in the tool chain for MCP calls), and their
 * composition with every other {@code AgentMiddleware} bean, which joins after the built-ins in {@code @Order}. The
 * tools the middleware contribute join the tool registry, so they pass the middleware chain and show in the MCP tool
 * list and the actuator endpoint.
 */
@AutoConfiguration(after = { AgentMiddlewareAutoConfiguration.class, ThreadStoreAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties({ TodoProperties.class, ErrorRecoveryProperties.class, LoopGuardProperties.class })
public final class AgentAutoConfiguration {

	/** The owner the registry shows for the tools of an agent middleware, followed by its name. */
	static final String TOOL_OWNER_PREFIX = "agent-middleware:";

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = TodoProperties.PREFIX + ".enabled", matchIfMissing = true)
	TodoMiddleware todoMiddleware(ThreadStore threadStore, TodoProperties properties) {
		return new TodoMiddleware(threadStore, new TodoLimits(properties.getMaxItems(), properties.getMaxTextLength()));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = ErrorRecoveryProperties.PREFIX + ".enabled", matchIfMissing = true)
	ErrorRecoveryMiddleware errorRecoveryMiddleware(SecretRedactor secretRedactor) {
		return new ErrorRecoveryMiddleware(secretRedactor);
	}

	@Bean
	@ConditionalOnMissingBean
	LoopGuard loopGuard(ThreadStore threadStore, LoopGuardProperties properties) {
		return new LoopGuard(LoopGuardConfigurer.policy(properties), threadStore);
	}

	/**
	 * The loop guard's per-thread budget in every tool's chain, for MCP calls (thread: the MCP session), counted in
	 * the same thread store as the calls of agent runs; out of every chain without a per-thread limit.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "loopGuardThreadBudget")
	OrderedMiddleware loopGuardThreadBudget(LoopGuard loopGuard) {
		return loopGuard.threadBudget();
	}

	@Bean
	@ConditionalOnMissingBean
	AgentRuns agentRuns(ObjectProvider<TodoMiddleware> todo, ObjectProvider<ErrorRecoveryMiddleware> errorRecovery,
			ObjectProvider<AgentMiddleware> middleware, ThreadStore threadStore, LoopGuard loopGuard) {
		List<AgentMiddleware> composition = new ArrayList<>();
		todo.ifAvailable(composition::add);
		errorRecovery.ifAvailable(composition::add);
		List<AgentMiddleware> builtIns = List.copyOf(composition);
		middleware.orderedStream()
			.filter((each) -> !builtIns.contains(each) && !(each instanceof ComposedAgentMiddleware))
			.forEach(composition::add);
		return new AgentRuns(AgentMiddleware.compose(composition), threadStore, loopGuard);
	}

	@Bean
	AgentToolContributor agentMiddlewareToolContributor(ObjectProvider<AgentRuns> agentRuns) {
		return (registry) -> {
			ComposedAgentMiddleware composed = agentRuns.getObject().middleware();
			for (AgentMiddleware middleware : composed.middleware()) {
				for (ExecutableTool tool : middleware.tools()) {
					// Of two tools with one name, only the one the composition kept is registered.
					if (composed.tools().contains(tool)) {
						registry.register(tool, TOOL_OWNER_PREFIX + middleware.name());
					}
				}
			}
		};
	}

}
