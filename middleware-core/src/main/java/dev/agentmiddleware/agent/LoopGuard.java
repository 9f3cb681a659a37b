package dev.agentmiddleware.agent;

import dev.agentmiddleware.agent.AgentRun.ToolCallRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.cache.ArgumentsFingerprint;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.thread.ThreadStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import dev.agentmiddleware.chain.InvalidPolicyException;

/**
 * Stops runaway agent loops: a maximum number of iterations per run, tool-call limits per
 * run and per thread, and repeated-call detection (the same tool with the same arguments,
 * by {@link ArgumentsFingerprint}, called too often in one run). A call a limit stops is
 * not run: it is answered with a text the model can act on, so every tool call of a turn
 * gets an answer. Thread-safe; per-run counts live in the {@link AgentRun}, per-thread
 * counts in the {@link ThreadStore} under {@value #THREAD_TOOL_CALLS_KEY}, so they hold
 * across runs and instances.
 *
 * <p>
 * <b>The per-thread budget is counted here, once per call, whatever the path:</b> the
 * calls of an agent run ({@link AgentRun#decide}, the {@code ChatClient} path, thread =
 * conversation) when the run decides them, and MCP calls (thread = MCP session), which no
 * run decides, by the {@link #threadBudget() middleware} this guard gives the tool chain.
 * A call of a run never reaches that middleware's count, so no call is counted twice.
 * <pre>{@code
 * LoopGuard guard = new LoopGuard(new LoopGuardPolicy(10, 30, 0, 3), threadStore);
 * ToolPipeline pipeline = ToolPipeline.chain(readFile, guard.threadBudget());   // MCP calls count too
 * }</pre>
 */
public final class LoopGuard {

	/** The thread-metadata key of the per-thread tool-call count. */
	public static final String THREAD_TOOL_CALLS_KEY = "toolCalls";

	private final LoopGuardPolicy policy;

	private final ThreadStore threadStore;

	/**
	 * Creates the guard.
	 * @param policy the limits
	 * @param threadStore keeps the per-thread count
	 */
	public LoopGuard(LoopGuardPolicy policy, ThreadStore threadStore) {
		this.policy = Objects.requireNonNull(policy, "policy");
		this.threadStore = Objects.requireNonNull(threadStore, "threadStore");
	}

	/**
	 * The limits.
	 * @return the policy
	 */
	public LoopGuardPolicy policy() {
		return this.policy;
	}

	boolean isLastIteration(int iteration) {
		return this.policy.maxIterations() > 0 && iteration >= this.policy.maxIterations();
	}

	String iterationLimitAnswer(String toolName) {
		return "Not run: the agent reached its limit of " + this.policy.maxIterations() + " iterations, so the tool '"
				+ toolName + "' was not called. Answer the user with what you have.";
	}

	/**
	 * Decides one tool call of a run.
	 * @param run the run's counters
	 * @param threadId the thread
	 * @param call the call
	 * @return {@code null} to run the call, otherwise the answer the model gets instead
	 */
	@Nullable String check(Counters run, String threadId, ToolCallRequest call) {
		Object key = List.of(call.name(), canonical(call.arguments()));
		synchronized (run) {
			int repeated = run.calls.getOrDefault(key, 0) + 1;
			if (this.policy.maxRepeatedCalls() > 0 && repeated >= this.policy.maxRepeatedCalls()) {
				run.calls.put(key, repeated);
				return "Not run: you called '" + call.name() + "' with the same arguments " + repeated
						+ " times in this run. Use the result you already have or try a different approach.";
			}
			if (this.policy.maxToolCallsPerRun() > 0 && run.total >= this.policy.maxToolCallsPerRun()) {
				return "Not run: this run reached its limit of " + this.policy.maxToolCallsPerRun()
						+ " tool calls, so '" + call.name() + "' was not called. Answer with what you have.";
			}
			if (!countInThread(threadId)) {
				return "Not run: this conversation reached its limit of " + this.policy.maxToolCallsPerThread()
						+ " tool calls, so '" + call.name() + "' was not called. Answer with what you have.";
			}
			run.calls.put(key, repeated);
			run.total++;
			return null;
		}
	}

	/**
	 * The tool-chain side of the per-thread budget: a middleware that counts each MCP
	 * tool call against {@link LoopGuardPolicy#maxToolCallsPerThread()}, with the call's
	 * MCP session as the thread, in the same count as the calls of agent runs
	 * ({@value #THREAD_TOOL_CALLS_KEY} in the thread store, so across instances). A call
	 * over the budget does not run: it fails with a {@code ToolRateLimitedException}
	 * decided by {@value ThreadBudgetMiddleware#NAME} (outcome {@code rate_limited},
	 * observed and logged like every refusal), whose message names the limit. Calls from
	 * other sources are not counted here: those of an agent run are counted by the run,
	 * and a call without a thread has no budget. Without a per-thread limit the
	 * middleware stays out of every chain.
	 * @return the middleware, at
	 * {@link dev.agentmiddleware.chain.BuiltInOrder#THREAD_BUDGET}
	 */
	public OrderedMiddleware threadBudget() {
		return new ThreadBudgetMiddleware(this);
	}

	/**
	 * Counts one call against the per-thread budget, unless the budget is used up.
	 * @param threadId the thread
	 * @return {@code true} if the call was counted (or there is no per-thread limit),
	 * {@code false} if the budget is used up
	 */
	boolean countInThread(String threadId) {
		int limit = this.policy.maxToolCallsPerThread();
		if (limit <= 0) {
			return true;
		}
		if (count(this.threadStore.load(threadId).get(THREAD_TOOL_CALLS_KEY)) >= limit) {
			return false;
		}
		try {
			this.threadStore.update(threadId, (metadata) -> {
				long count = count(metadata.get(THREAD_TOOL_CALLS_KEY));
				if (count >= limit) {
					throw new LimitReached();
				}
				Map<String, @Nullable Object> changed = new LinkedHashMap<>(metadata);
				changed.put(THREAD_TOOL_CALLS_KEY, count + 1);
				return changed;
			});
			return true;
		}
		catch (LimitReached ex) {
			return false;
		}
	}

	private static long count(@Nullable Object value) {
		return (value instanceof Number number) ? number.longValue() : 0;
	}

	private static Object canonical(String arguments) {
		try {
			@SuppressWarnings("unchecked")
			Map<String, Object> parsed = JsonMapper.shared().readValue(arguments, Map.class);
			return ArgumentsFingerprint.of((parsed != null) ? parsed : Map.of());
		}
		catch (JacksonException ex) {
			return arguments.strip();
		}
	}

	/**
	 * The per-run counts of one run.
	 */
	static final class Counters {

		private final Map<Object, Integer> calls = new java.util.HashMap<>();

		private int total;

	}

	private static final class LimitReached extends RuntimeException {

		LimitReached() {
			super(null, null, false, false);
		}

	}

	/**
	 * The limits of a {@link LoopGuard}; {@code 0} means no limit. <pre>{@code
	 * LoopGuardPolicy policy = new LoopGuardPolicy(10, 30, 500, 3);
	 * }</pre>
	 *
	 * @param maxIterations the most model calls in one run; when the last allowed
	 * iteration still asks for tools, each of its tool calls is answered with the limit
	 * and the run ends
	 * @param maxToolCallsPerRun the most tool calls in one run
	 * @param maxToolCallsPerThread the most tool calls in one thread (a conversation or
	 * an MCP session), across runs, paths and instances (counted in the thread store)
	 * @param maxRepeatedCalls the most times one tool may be called with the same
	 * arguments in one run; the call that reaches this number is answered instead of run
	 */
	public record LoopGuardPolicy(int maxIterations, int maxToolCallsPerRun, int maxToolCallsPerThread,
			int maxRepeatedCalls) {

		/** No limits at all. */
		public static final LoopGuardPolicy UNLIMITED = new LoopGuardPolicy(0, 0, 0, 0);

		/**
		 * Validates the limits.
		 */
		public LoopGuardPolicy {
			String negative = (maxIterations < 0) ? "maxIterations"
					: (maxToolCallsPerRun < 0) ? "maxToolCallsPerRun" : (maxToolCallsPerThread < 0)
							? "maxToolCallsPerThread" : (maxRepeatedCalls < 0) ? "maxRepeatedCalls" : null;
			if (negative != null) {
				throw new InvalidPolicyException(negative, "Loop guard limits must not be negative (0 means no limit)");
			}
		}

	}

}
