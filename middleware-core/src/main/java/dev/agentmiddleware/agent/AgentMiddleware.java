package dev.agentmiddleware.agent;

import java.util.List;

import dev.agentmiddleware.tool.ExecutableTool;

/**
 * Extends an agent without changing its loop: contributes tools, and hooks before and after each iteration of the
 * loop (one model call and the tool calls it asks for).
 *
 * <p>Contributed tools are real tools: the integration registers them with every other tool, so they pass the same
 * middleware chain (approval, cache, rate limit, observation, ...) and show wherever tools are listed. Hooks run on
 * the thread that runs the loop, in {@link #compose composition} order; a hook that throws fails the iteration with
 * an {@link AgentMiddlewareException} naming the middleware. One instance serves every run concurrently: keep
 * per-run state in {@link IterationContext#runAttributes()} and per-thread state in the thread metadata.
 * <pre>{@code
 * AgentMiddleware audit = new AgentMiddleware() {
 *     public String name() { return "audit"; }
 *     public void afterIteration(IterationContext context, IterationResult result) {
 *         log.info("thread {} iteration {}: {} events", context.threadId(), context.iteration(), result.events().size());
 *     }
 * };
 * ComposedAgentMiddleware middleware = AgentMiddleware.compose(List.of(todos, errorRecovery, audit));
 * }</pre>
 */
public interface AgentMiddleware {

	/**
	 * The middleware's name, used in warnings and errors.
	 * @return the name
	 */
	String name();

	/**
	 * The tools this middleware contributes.
	 * @return the tools; none by default
	 */
	default List<ExecutableTool> tools() {
		return List.of();
	}

	/**
	 * Runs before an iteration's model call.
	 * @param context the iteration
	 */
	default void beforeIteration(IterationContext context) {
	}

	/**
	 * Runs after an iteration: its model call and the tool calls it asked for.
	 * @param context the iteration
	 * @param result the model's reply and the events of its tool calls
	 */
	default void afterIteration(IterationContext context, IterationResult result) {
	}

	/**
	 * Composes middleware into one: tools merged (for a name used twice the later middleware wins, with a warning
	 * naming both middleware and the tool), {@code beforeIteration} hooks in list order, {@code afterIteration}
	 * hooks in list order.
	 * @param middleware the middleware, in order
	 * @return the composition
	 */
	static ComposedAgentMiddleware compose(List<? extends AgentMiddleware> middleware) {
		return new ComposedAgentMiddleware(middleware);
	}

}
