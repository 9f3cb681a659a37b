package dev.agentmiddleware.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.tool.ExecutableTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;

/**
 * Several {@link AgentMiddleware} as one: see {@link AgentMiddleware#compose}. Immutable and thread-safe.
 */
public final class ComposedAgentMiddleware implements AgentMiddleware {

	private static final Logger logger = LoggerFactory.getLogger(ComposedAgentMiddleware.class);

	private final List<AgentMiddleware> middleware;

	private final List<ExecutableTool> tools;

	ComposedAgentMiddleware(List<? extends AgentMiddleware> middleware) {
		this.middleware = List.copyOf(middleware);
		Map<String, ExecutableTool> tools = new LinkedHashMap<>();
		Map<String, String> owners = new LinkedHashMap<>();
		for (AgentMiddleware each : this.middleware) {
			for (ExecutableTool tool : each.tools()) {
				String name = tool.descriptor().name();
				String previous = owners.put(name, each.name());
				if (previous != null) {
					logger.warn("Agent middleware '{}' contributes tool '{}', which agent middleware '{}' "
							+ "contributes too; the tool of '{}' is used", each.name(), name, previous, each.name());
					tools.remove(name);
				}
				tools.put(name, tool);
			}
		}
		this.tools = List.copyOf(tools.values());
	}

	@Override
	public String name() {
		List<String> names = new ArrayList<>();
		this.middleware.forEach((each) -> names.add(each.name()));
		return String.join(", ", names);
	}

	/**
	 * The composed middleware, in order.
	 * @return the middleware
	 */
	public List<AgentMiddleware> middleware() {
		return this.middleware;
	}

	/**
	 * The merged tools of every middleware.
	 * @return the tools, in order of first contribution
	 */
	@Override
	public List<ExecutableTool> tools() {
		return this.tools;
	}

	/**
	 * Runs every {@code beforeIteration} hook in order.
	 * @param context the iteration
	 * @throws AgentMiddlewareException if a hook throws, naming its middleware; later hooks do not run
	 */
	@Override
	public void beforeIteration(IterationContext context) {
		for (AgentMiddleware each : this.middleware) {
			try {
				each.beforeIteration(context);
			}
			catch (RuntimeException ex) {
				throw new AgentMiddlewareException(each.name(), "beforeIteration", context.iteration(), ex);
			}
		}
	}

	/**
	 * Runs every {@code afterIteration} hook in order.
	 * @param context the iteration
	 * @param result what the iteration produced
	 * @throws AgentMiddlewareException if a hook throws, naming its middleware; later hooks do not run
	 */
	@Override
	public void afterIteration(IterationContext context, IterationResult result) {
		for (AgentMiddleware each : this.middleware) {
			try {
				each.afterIteration(context, result);
			}
			catch (RuntimeException ex) {
				throw new AgentMiddlewareException(each.name(), "afterIteration", context.iteration(), ex);
			}
		}
	}

}
