package dev.agentmiddleware.agent;

import java.time.Duration;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The loop guard's per-thread budget in the tool chain, for the calls no agent run
 * decides: MCP calls, whose thread is the MCP session (the id the client knows, the same
 * on every instance). It only asks its {@link LoopGuard}, which keeps the one count per
 * thread; see {@link LoopGuard#threadBudget()}.
 */
final class ThreadBudgetMiddleware implements OrderedMiddleware {

	/** The name in chains and in {@code decidedBy}: the budget is the loop guard's. */
	static final String NAME = "loop-guard";

	private final LoopGuard guard;

	private final String limitText;

	ThreadBudgetMiddleware(LoopGuard guard) {
		this.guard = guard;
		int limit = guard.policy().maxToolCallsPerThread();
		this.limitText = "this session's budget of " + limit + ((limit == 1) ? " tool call" : " tool calls")
				+ " is used up: loop-guard max-tool-calls-per-thread";
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		if (this.guard.policy().maxToolCallsPerThread() <= 0) {
			return next;
		}
		String toolName = tool.name();
		return (invocation) -> {
			String threadId = threadOf(invocation);
			if (threadId != null && !this.guard.countInThread(threadId)) {
				// The exception is the decision: observers, logs and metrics see
				// RATE_LIMITED by "loop-guard".
				throw new ToolRateLimitedException(toolName, NAME, this.limitText, Duration.ZERO);
			}
			return next.handle(invocation);
		};
	}

	// Only MCP calls: a ChatClient run's calls are counted when the run decides them
	// (AgentRun.decide), so counting
	// them here too would count them twice; a call without a session has no thread.
	private static @Nullable String threadOf(ToolInvocation invocation) {
		String sessionId = invocation.sessionId();
		return (invocation.source() == InvocationSource.MCP && sessionId != null && !sessionId.isBlank()) ? sessionId
				: null;
	}

	@Override
	public int order() {
		return BuiltInOrder.THREAD_BUDGET;
	}

	@Override
	public String name() {
		return NAME;
	}

}
