package dev.agentmiddleware.autoconfigure.agent;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import dev.agentmiddleware.agent.AgentBudget;
import dev.agentmiddleware.agent.AgentBudget.BudgetPolicy;
import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.ComposedAgentMiddleware;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.agent.ErrorRecoveryMiddleware;
import dev.agentmiddleware.agent.LoopGuard;
import dev.agentmiddleware.agent.UsageMetrics;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolContributor;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.todo.TodoMiddleware;
import dev.agentmiddleware.todo.TodoMiddleware.TodoLimits;
import dev.agentmiddleware.tool.ExecutableTool;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Agent-level middleware: the built-in todo and error-recovery middleware (each switched
 * off with its {@code enabled} property), the loop guard (with its per-thread budget in
 * the tool chain for MCP calls), the token and cost budgets (with the
 * {@code agent.tokens} and {@code agent.cost} metrics when a {@code MeterRegistry}
 * exists, and their section of the actuator endpoint), and their composition with every
 * other {@code AgentMiddleware} bean, which joins after the built-ins in {@code @Order}.
 * The tools the middleware contribute join the tool registry, so they pass the middleware
 * chain and show in the MCP tool list and the actuator endpoint.
 */
@AutoConfiguration(after = { AgentMiddlewareAutoConfiguration.class, ThreadStoreAutoConfiguration.class },
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties({ TodoProperties.class, ErrorRecoveryProperties.class, LoopGuardProperties.class,
		BudgetProperties.class })
public final class AgentAutoConfiguration {

	/**
	 * The owner the registry shows for the tools of an agent middleware, followed by its
	 * name.
	 */
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
	 * The loop guard's per-thread budget in every tool's chain, for MCP calls (thread:
	 * the MCP session), counted in the same thread store as the calls of agent runs; out
	 * of every chain without a per-thread limit.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "loopGuardThreadBudget")
	OrderedMiddleware loopGuardThreadBudget(LoopGuard loopGuard) {
		return loopGuard.threadBudget();
	}

	@Bean
	@ConditionalOnMissingBean
	AgentBudget agentBudget(ThreadStore threadStore, BudgetProperties properties,
			ObjectProvider<UsageMetrics> usageMetrics) {
		BudgetPolicy policy = BudgetConfigurer.policy(properties);
		return new AgentBudget(policy, threadStore, Clock.systemUTC(),
				properties.isEnabled() ? usageMetrics.getIfAvailable(() -> UsageMetrics.NONE) : UsageMetrics.NONE);
	}

	@Bean
	@ConditionalOnMissingBean
	AgentRuns agentRuns(ObjectProvider<TodoMiddleware> todo, ObjectProvider<ErrorRecoveryMiddleware> errorRecovery,
			ObjectProvider<AgentMiddleware> middleware, ThreadStore threadStore, LoopGuard loopGuard,
			AgentBudget agentBudget) {
		List<AgentMiddleware> composition = new ArrayList<>();
		todo.ifAvailable(composition::add);
		errorRecovery.ifAvailable(composition::add);
		List<AgentMiddleware> builtIns = List.copyOf(composition);
		middleware.orderedStream()
			.filter((each) -> !builtIns.contains(each) && !(each instanceof ComposedAgentMiddleware))
			.forEach(composition::add);
		return new AgentRuns(AgentMiddleware.compose(composition), threadStore, loopGuard, agentBudget);
	}

	@Bean
	AgentToolContributor agentMiddlewareToolContributor(ObjectProvider<AgentRuns> agentRuns) {
		return (registry) -> {
			ComposedAgentMiddleware composed = agentRuns.getObject().middleware();
			for (AgentMiddleware middleware : composed.middleware()) {
				for (ExecutableTool tool : middleware.tools()) {
					// Of two tools with one name, only the one the composition kept is
					// registered.
					if (composed.tools().contains(tool)) {
						registry.register(tool, TOOL_OWNER_PREFIX + middleware.name());
					}
				}
			}
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	@ConditionalOnBooleanProperty(name = BudgetProperties.PREFIX + ".enabled", matchIfMissing = true)
	static class UsageMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(UsageMetrics.class)
		MicrometerUsageMetrics usageMetrics(MeterRegistry meterRegistry, BudgetProperties properties) {
			return new MicrometerUsageMetrics(meterRegistry, properties.getCurrency(),
					!properties.getPrices().isEmpty(), new LinkedHashSet<>(properties.getMetrics().getPrincipals()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class BudgetEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "budgetEndpointContributor")
		AgentMiddlewareEndpointContributor budgetEndpointContributor(AgentBudget agentBudget) {
			return new BudgetEndpointContributor(agentBudget);
		}

	}

}
