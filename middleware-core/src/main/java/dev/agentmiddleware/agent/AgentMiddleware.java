package dev.agentmiddleware.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;
import dev.agentmiddleware.tool.ExecutableTool;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends an agent without changing its loop: contributes tools, and hooks before and
 * after each iteration of the loop (one model call and the tool calls it asks for).
 *
 * <p>
 * Contributed tools are real tools: the integration registers them with every other tool,
 * so they pass the same middleware chain (approval, cache, rate limit, observation, ...)
 * and show wherever tools are listed. Hooks run on the thread that runs the loop, in
 * {@link #compose composition} order; a hook that throws fails the iteration with an
 * {@link AgentMiddlewareException} naming the middleware. One instance serves every run
 * concurrently: keep per-run state in {@link IterationContext#runAttributes()} and
 * per-thread state in the thread metadata. <pre>{@code
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
	 * Composes middleware into one: tools merged (for a name used twice the later
	 * middleware wins, with a warning naming both middleware and the tool),
	 * {@code beforeIteration} hooks in list order, {@code afterIteration} hooks in list
	 * order.
	 * @param middleware the middleware, in order
	 * @return the composition
	 */
	static ComposedAgentMiddleware compose(List<? extends AgentMiddleware> middleware) {
		return new ComposedAgentMiddleware(middleware);
	}

	/**
	 * One iteration of an agent loop as its hooks see it: the thread, the iteration
	 * number, the thread's metadata through the {@link ThreadStore}, the messages the
	 * model gets as input, and a way to add to the next iteration's input. <pre>{@code
	 * public void afterIteration(IterationContext context, IterationResult result) {
	 *     if (context.iteration() == 3) {
	 *         context.appendToNextInput("Summarise your progress before calling more tools.");
	 *     }
	 * }
	 * }</pre>
	 */
	public static final class IterationContext {

		private final String threadId;

		private final int iteration;

		private final List<AgentMessage> messages;

		private final ThreadStore threadStore;

		private final Map<String, Object> runAttributes;

		private final List<String> nextInput;

		IterationContext(String threadId, int iteration, List<AgentMessage> messages, ThreadStore threadStore,
				Map<String, Object> runAttributes, List<String> nextInput) {
			this.threadId = threadId;
			this.iteration = iteration;
			this.messages = List.copyOf(messages);
			this.threadStore = threadStore;
			this.runAttributes = runAttributes;
			this.nextInput = nextInput;
		}

		/**
		 * The thread: the conversation id on the {@code ChatClient} path, the MCP session
		 * id on the MCP path.
		 * @return the thread id
		 */
		public String threadId() {
			return this.threadId;
		}

		/**
		 * The iteration number within the run, from 1.
		 * @return the iteration number
		 */
		public int iteration() {
			return this.iteration;
		}

		/**
		 * The messages the model gets as input in this iteration.
		 * @return the messages, oldest first
		 */
		public List<AgentMessage> messages() {
			return this.messages;
		}

		/**
		 * The thread's metadata as stored now.
		 * @return the metadata
		 */
		public ThreadMetadata metadata() {
			return this.threadStore.load(this.threadId);
		}

		/**
		 * Changes the thread's metadata atomically; see {@link ThreadStore#update}.
		 * @param change computes the new metadata from the current one; may run more than
		 * once
		 * @return the metadata as written
		 */
		public ThreadMetadata updateMetadata(UnaryOperator<Map<String, @Nullable Object>> change) {
			return this.threadStore.update(this.threadId, change);
		}

		/**
		 * State that lives as long as the run (all iterations of one loop), shared by
		 * every middleware: key it by middleware name. Thread-safe.
		 * @return the mutable run attributes
		 */
		public Map<String, Object> runAttributes() {
			return this.runAttributes;
		}

		/**
		 * Adds text to the input of the next iteration (the loop adds it after the tool
		 * answers).
		 * @param text the text for the model
		 */
		public void appendToNextInput(String text) {
			synchronized (this.nextInput) {
				this.nextInput.add(Objects.requireNonNull(text, "text"));
			}
		}

		@Override
		public String toString() {
			return "IterationContext[thread=" + this.threadId + ", iteration=" + this.iteration + "]";
		}

	}

	/**
	 * What one iteration produced: the model's reply and the events of the tool calls it
	 * asked for, in order. <pre>{@code
	 * AgentEvent last = result.lastEvent();
	 * if (last != null && last.isError()) { ... }
	 * }</pre>
	 *
	 * @param reply the model's reply, or {@code null} when the model call failed
	 * @param events what happened after the reply, in order
	 */
	public record IterationResult(@Nullable AgentMessage reply, List<AgentEvent> events) {

		/**
		 * Freezes the events.
		 */
		public IterationResult {
			events = List.copyOf(Objects.requireNonNull(events, "events"));
		}

		/**
		 * The last event.
		 * @return the last event, or {@code null} when there was none
		 */
		public @Nullable AgentEvent lastEvent() {
			return this.events.isEmpty() ? null : this.events.get(this.events.size() - 1);
		}

		/**
		 * Whether the reply asked for tool calls, so the loop goes on.
		 * @return {@code true} if the reply carries tool calls
		 */
		public boolean hasToolCalls() {
			return this.reply != null && !this.reply.toolCalls().isEmpty();
		}

	}

	/**
	 * One message of an agent conversation, in a model-neutral form. <pre>{@code
	 * AgentMessage question = AgentMessage.of(AgentMessage.Role.USER, "Plan my trip");
	 * }</pre>
	 *
	 * @param role who speaks
	 * @param text the text; empty when the message only carries tool calls
	 * @param toolCalls the tool calls an assistant message asks for; empty otherwise
	 */
	public record AgentMessage(Role role, String text, List<ToolCallRequest> toolCalls) {

		/**
		 * Validates and freezes the components.
		 */
		public AgentMessage {
			Objects.requireNonNull(role, "role");
			Objects.requireNonNull(text, "text");
			toolCalls = List.copyOf(toolCalls);
		}

		/**
		 * A message without tool calls.
		 * @param role who speaks
		 * @param text the text
		 * @return the message
		 */
		public static AgentMessage of(Role role, String text) {
			return new AgentMessage(role, text, List.of());
		}

		/**
		 * Who speaks in a message.
		 */
		public enum Role {

			/** Instructions for the model. */
			SYSTEM,

			/** The user. */
			USER,

			/** The model. */
			ASSISTANT,

			/** Answers of tools to the model's tool calls. */
			TOOL

		}

	}

	/**
	 * Several {@link AgentMiddleware} as one: see {@link AgentMiddleware#compose}.
	 * Immutable and thread-safe.
	 */
	public static final class ComposedAgentMiddleware implements AgentMiddleware {

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
						logger.warn(
								"Agent middleware '{}' contributes tool '{}', which agent middleware '{}' "
										+ "contributes too; the tool of '{}' is used",
								each.name(), name, previous, each.name());
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
		 * @throws AgentMiddlewareException if a hook throws, naming its middleware; later
		 * hooks do not run
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
		 * @throws AgentMiddlewareException if a hook throws, naming its middleware; later
		 * hooks do not run
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

}
