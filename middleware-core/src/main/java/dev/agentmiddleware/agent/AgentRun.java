package dev.agentmiddleware.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.agent.AgentMiddleware.AgentMessage;
import dev.agentmiddleware.agent.AgentMiddleware.ComposedAgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.thread.ThreadStore;
import org.jspecify.annotations.Nullable;

/**
 * One run of an agent loop (one user turn, all its iterations), driving the composed
 * middleware, the loop guard and the token and cost budgets. An integration with a loop
 * (such as Spring AI's tool-calling advisor) calls, per iteration: {@link #budgetSpent()}
 * and, unless a budget is spent, {@link #beginIteration} before the model call,
 * {@link #count} with the usage of the model's response, {@link #decide} for the tool
 * calls the model asked for, and {@link #endIteration} once the tool calls are answered
 * (or the model replied without any); the {@link #takeNextInput() notes} for the next
 * iteration's input go after the tool answers.
 *
 * <p>
 * Iterations of a run are sequential, but may run on different threads (reactive
 * streams); the run is thread-safe for that. <pre>{@code
 * AgentRun run = AgentRun.start("conversation-42", middleware, threadStore, guard);
 * String stop = run.budgetSpent();   // non-null: end the run with this final answer, without a model call
 * run.beginIteration(messages);
 * run.count(ModelUsage.of(model, inputTokens, outputTokens));
 * List<ToolCallDecision> decisions = run.decide(reply.toolCalls());
 * // run the calls that decisions say to run, answer the others with decision.answer()
 * run.endIteration(new IterationResult(reply, events));
 * }</pre>
 */
public final class AgentRun {

	private final String threadId;

	private final ComposedAgentMiddleware middleware;

	private final ThreadStore threadStore;

	private final LoopGuard guard;

	private final AgentBudget budget;

	private final @Nullable String principal;

	private final LoopGuard.Counters counters = new LoopGuard.Counters();

	private final AgentBudget.RunSpending spending = new AgentBudget.RunSpending();

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private final List<String> nextInput = new ArrayList<>();

	private int iteration;

	private @Nullable IterationContext current;

	private boolean ended;

	private @Nullable AgentMessage lastReply;

	private AgentRun(String threadId, @Nullable String principal, ComposedAgentMiddleware middleware,
			ThreadStore threadStore, LoopGuard guard, AgentBudget budget) {
		this.threadId = Objects.requireNonNull(threadId, "threadId");
		this.principal = principal;
		this.middleware = Objects.requireNonNull(middleware, "middleware");
		this.threadStore = Objects.requireNonNull(threadStore, "threadStore");
		this.guard = Objects.requireNonNull(guard, "guard");
		this.budget = Objects.requireNonNull(budget, "budget");
	}

	/**
	 * Starts a run.
	 * @param threadId the thread (conversation or session) the run belongs to
	 * @param middleware the composed middleware
	 * @param threadStore the thread metadata
	 * @param guard the loop guard
	 * @return the run, before its first iteration
	 */
	public static AgentRun start(String threadId, ComposedAgentMiddleware middleware, ThreadStore threadStore,
			LoopGuard guard) {
		return new AgentRun(threadId, null, middleware, threadStore, guard, AgentBudget.none());
	}

	/**
	 * Starts a run with token and cost budgets.
	 * @param threadId the thread (conversation or session) the run belongs to
	 * @param principal the name of the principal the run is for, or {@code null} (no
	 * per-principal budget applies)
	 * @param middleware the composed middleware
	 * @param threadStore the thread metadata
	 * @param guard the loop guard
	 * @param budget the token and cost budgets
	 * @return the run, before its first iteration
	 */
	public static AgentRun start(String threadId, @Nullable String principal, ComposedAgentMiddleware middleware,
			ThreadStore threadStore, LoopGuard guard, AgentBudget budget) {
		return new AgentRun(threadId, principal, middleware, threadStore, guard, budget);
	}

	/**
	 * The thread the run belongs to.
	 * @return the thread id
	 */
	public String threadId() {
		return this.threadId;
	}

	/**
	 * The principal the run is for.
	 * @return the principal's name, or {@code null}
	 */
	public @Nullable String principal() {
		return this.principal;
	}

	/**
	 * Whether a token or cost budget is spent, asked before each model call: a run whose
	 * budget is spent makes no further model call and ends with the returned text as its
	 * final answer.
	 * @return the final answer naming the budget and its use, or {@code null} when the
	 * model may be called
	 */
	public @Nullable String budgetSpent() {
		return this.budget.spent(this.spending, this.threadId, this.principal);
	}

	/**
	 * Counts what one model response of the run used, against the run, its thread and its
	 * principal's day; a response without usage is counted as {@link ModelUsage#unknown
	 * unknown}.
	 * @param usage what the response used
	 */
	public void count(ModelUsage usage) {
		this.budget.count(this.spending, this.threadId, this.principal, Objects.requireNonNull(usage, "usage"));
	}

	/**
	 * What the run has spent so far.
	 * @return the run's spending
	 */
	public AgentBudget.Spending spending() {
		return this.spending.spending();
	}

	/**
	 * The number of the current iteration, from 1; 0 before the first.
	 * @return the iteration number
	 */
	public synchronized int iteration() {
		return this.iteration;
	}

	/**
	 * Whether the current iteration has begun and not yet ended.
	 * @return {@code true} while an iteration is open
	 */
	public synchronized boolean iterationOpen() {
		return this.current != null;
	}

	/**
	 * Begins the next iteration and runs every {@code beforeIteration} hook.
	 * @param input the messages the model gets
	 * @return the iteration's context
	 * @throws AgentMiddlewareException if a hook fails
	 * @throws IllegalStateException if the previous iteration was not ended
	 */
	public IterationContext beginIteration(List<AgentMessage> input) {
		IterationContext context;
		synchronized (this) {
			if (this.current != null) {
				throw new IllegalStateException(
						"Iteration " + this.iteration + " of thread '" + this.threadId + "' has not ended");
			}
			this.iteration++;
			context = new IterationContext(this.threadId, this.iteration, input, this.threadStore, this.attributes,
					this.nextInput);
			this.current = context;
		}
		this.middleware.beforeIteration(context);
		return context;
	}

	/**
	 * Decides, for each tool call of the current iteration's reply, whether it runs or
	 * what answers it instead. Every call gets a decision, in order; calls are counted
	 * against the limits as they are allowed. At the iteration limit, or when a budget is
	 * spent (its model could not read the results), every call is answered and the run
	 * ends: with a spent budget, each answer is the final answer of
	 * {@link #budgetSpent()}.
	 * @param calls the tool calls of the model's reply
	 * @return one decision per call, in the same order
	 */
	public List<ToolCallDecision> decide(List<ToolCallRequest> calls) {
		int iteration = iteration();
		boolean last = this.guard.isLastIteration(iteration);
		String spent = (last || calls.isEmpty()) ? null : budgetSpent();
		List<ToolCallDecision> decisions = new ArrayList<>(calls.size());
		for (ToolCallRequest call : calls) {
			if (last) {
				decisions.add(new ToolCallDecision(call, this.guard.iterationLimitAnswer(call.name()), true));
			}
			else if (spent != null) {
				decisions.add(new ToolCallDecision(call, spent, true));
			}
			else {
				decisions.add(new ToolCallDecision(call, this.guard.check(this.counters, this.threadId, call), false));
			}
		}
		return decisions;
	}

	/**
	 * Ends the current iteration and runs every {@code afterIteration} hook.
	 * @param result what the iteration produced
	 * @throws AgentMiddlewareException if a hook fails
	 * @throws IllegalStateException if no iteration is open
	 */
	public void endIteration(IterationResult result) {
		IterationContext context;
		synchronized (this) {
			context = this.current;
			if (context == null) {
				throw new IllegalStateException("No iteration of thread '" + this.threadId + "' is open");
			}
			this.current = null;
		}
		this.middleware.afterIteration(context, result);
	}

	/**
	 * Records the model's latest reply, as the integration receives it: the reply an
	 * iteration that the loop leaves without tool calls (a final answer, a failure) ends
	 * with.
	 * @param reply the reply, or {@code null} when the model gave none
	 */
	public synchronized void replied(@Nullable AgentMessage reply) {
		this.lastReply = reply;
	}

	/**
	 * The model's latest reply recorded with {@link #replied(AgentMessage)}.
	 * @return the reply, or {@code null} before the first
	 */
	public synchronized @Nullable AgentMessage lastReply() {
		return this.lastReply;
	}

	/**
	 * Takes the texts hooks added for the next iteration's input.
	 * @return the texts, in the order they were added; the run forgets them
	 */
	public List<String> takeNextInput() {
		synchronized (this.nextInput) {
			List<String> texts = List.copyOf(this.nextInput);
			this.nextInput.clear();
			return texts;
		}
	}

	/**
	 * Marks the run as ended; returns whether this call ended it, so an integration with
	 * several exit paths ends it once.
	 * @return {@code true} the first time
	 */
	public synchronized boolean end() {
		boolean first = !this.ended;
		this.ended = true;
		return first;
	}

	@Override
	public String toString() {
		return "AgentRun[thread=" + this.threadId + ", iteration=" + iteration() + "]";
	}

	/**
	 * A tool call the model asked for, in a model-neutral form.
	 *
	 * @param id the id the model gave the call, which its answer must carry
	 * @param name the tool name
	 * @param arguments the arguments as the model sent them (JSON text)
	 */
	public record ToolCallRequest(String id, String name, String arguments) {

		/**
		 * Validates the components.
		 */
		public ToolCallRequest {
			Objects.requireNonNull(id, "id");
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(arguments, "arguments");
		}

	}

	/**
	 * What to do with one tool call the model asked for: run it, or answer it with a text
	 * instead.
	 *
	 * @param call the call
	 * @param answer the text the model gets instead of running the tool, or {@code null}
	 * to run it
	 * @param endsRun whether the loop must stop after this turn (the iteration limit is
	 * reached, or a budget is spent)
	 */
	public record ToolCallDecision(ToolCallRequest call, @Nullable String answer, boolean endsRun) {

		/**
		 * Whether the tool runs.
		 * @return {@code true} if the call is not answered by a guard
		 */
		public boolean runs() {
			return this.answer == null;
		}

	}

	/**
	 * Starts {@link AgentRun}s of one configuration: the composed middleware, the thread
	 * store, the loop guard and the token and cost budgets. Immutable and thread-safe; an
	 * integration holds one and starts a run per user turn. <pre>{@code
	 * AgentRuns runs = new AgentRuns(AgentMiddleware.compose(List.of(todos, recovery)), threadStore, guard, budget);
	 * AgentRun run = runs.start(conversationId, principalName);
	 * }</pre>
	 *
	 * @param middleware the composed middleware
	 * @param threadStore the thread metadata
	 * @param guard the loop guard
	 * @param budget the token and cost budgets
	 */
	public record AgentRuns(ComposedAgentMiddleware middleware, ThreadStore threadStore, LoopGuard guard,
			AgentBudget budget) {

		/**
		 * Validates the components.
		 */
		public AgentRuns {
			Objects.requireNonNull(middleware, "middleware");
			Objects.requireNonNull(threadStore, "threadStore");
			Objects.requireNonNull(guard, "guard");
			Objects.requireNonNull(budget, "budget");
		}

		/**
		 * Creates runs without token and cost budgets.
		 * @param middleware the composed middleware
		 * @param threadStore the thread metadata
		 * @param guard the loop guard
		 */
		public AgentRuns(ComposedAgentMiddleware middleware, ThreadStore threadStore, LoopGuard guard) {
			this(middleware, threadStore, guard, AgentBudget.none());
		}

		/**
		 * Starts a run without a principal.
		 * @param threadId the thread the run belongs to
		 * @return the run
		 */
		public AgentRun start(String threadId) {
			return start(threadId, null);
		}

		/**
		 * Starts a run.
		 * @param threadId the thread the run belongs to
		 * @param principal the name of the principal the run is for, or {@code null}
		 * @return the run
		 */
		public AgentRun start(String threadId, @Nullable String principal) {
			return AgentRun.start(threadId, principal, this.middleware, this.threadStore, this.guard, this.budget);
		}

	}

	/**
	 * Something that happened during an iteration, in order: a tool answered, a tool
	 * failed, a loop guard answered a call instead of the tool, or the iteration itself
	 * failed. <pre>{@code
	 * AgentEvent failed = AgentEvent.toolError("call-1", "read_file", "File not found", exception);
	 * }</pre>
	 *
	 * @param kind what happened
	 * @param toolName the tool concerned, or {@code null} for an iteration failure
	 * @param callId the id of the tool call, or {@code null}
	 * @param text the text the model reads (the tool's result, the error text or the
	 * guard's answer)
	 * @param error the exception behind an error, or {@code null} when only its text is
	 * known
	 */
	public record AgentEvent(Kind kind, @Nullable String toolName, @Nullable String callId, String text,
			@Nullable Throwable error) {

		/**
		 * Validates the components.
		 */
		public AgentEvent {
			Objects.requireNonNull(kind, "kind");
			Objects.requireNonNull(text, "text");
		}

		/**
		 * A tool answered.
		 * @param callId the call id
		 * @param toolName the tool
		 * @param text the result as the model reads it
		 * @return the event
		 */
		public static AgentEvent toolResult(String callId, String toolName, String text) {
			return new AgentEvent(Kind.TOOL_RESULT, toolName, callId, text, null);
		}

		/**
		 * A tool failed.
		 * @param callId the call id
		 * @param toolName the tool
		 * @param text the error as the model reads it
		 * @param error the exception, or {@code null} when only the text is known
		 * @return the event
		 */
		public static AgentEvent toolError(String callId, String toolName, String text, @Nullable Throwable error) {
			return new AgentEvent(Kind.TOOL_ERROR, toolName, callId, text, error);
		}

		/**
		 * A loop guard answered a call instead of running the tool.
		 * @param callId the call id
		 * @param toolName the tool
		 * @param text the guard's answer
		 * @return the event
		 */
		public static AgentEvent guarded(String callId, String toolName, String text) {
			return new AgentEvent(Kind.GUARDED, toolName, callId, text, null);
		}

		/**
		 * The iteration failed, for example the model call.
		 * @param error the exception
		 * @return the event
		 */
		public static AgentEvent failure(Throwable error) {
			return new AgentEvent(Kind.FAILURE, null, null, String.valueOf(error.getMessage()), error);
		}

		/**
		 * Whether this event is an error: a failed tool or a failed iteration.
		 * @return {@code true} for {@link Kind#TOOL_ERROR} and {@link Kind#FAILURE}
		 */
		public boolean isError() {
			return this.kind == Kind.TOOL_ERROR || this.kind == Kind.FAILURE;
		}

		/**
		 * What happened.
		 */
		public enum Kind {

			/** A tool answered. */
			TOOL_RESULT,

			/** A tool failed; the model read an error text. */
			TOOL_ERROR,

			/** A loop guard answered the call; the tool did not run. */
			GUARDED,

			/** The iteration itself failed. */
			FAILURE

		}

	}

}
