package dev.agentmiddleware.autoconfigure.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.agent.AgentMiddleware.AgentMessage;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentMiddlewareException;
import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.agent.AgentRun.AgentRuns;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionEligibilityChecker;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * Spring AI's tool-calling loop with agent-level middleware: on every iteration of the
 * loop (one model call and the tool calls it asks for), on the call and the stream paths,
 * runs the {@code beforeIteration} hooks before the model call and the
 * {@code afterIteration} hooks once the tool calls are answered (or the model replied
 * without any); asks the loop guard about every tool call, answering the calls a limit
 * stops instead of running them; adds what hooks left for the next iteration's input
 * (such as the error-recovery hint) after the tool answers; and keeps the run's token and
 * cost budgets: before each model call it asks whether a budget is spent (then the loop
 * ends without calling the model, its final answer saying which budget and how much was
 * used), and it counts the usage metadata of each model response
 * ({@code ChatResponse.getMetadata().getUsage()}, the model named by {@code getModel()};
 * a response without usage is counted as unknown). When the response that spends a budget
 * asks for tool calls, they are answered with that final answer instead of running, and
 * the run ends, as at the loop guard's iteration limit.
 *
 * <p>
 * The run's thread is the conversation id ({@link ChatMemory#CONVERSATION_ID} among the
 * advisor parameters or in the tool context, or {@value AgentToolCallback#SESSION_ID_KEY}
 * in the tool context); a request without one gets a fresh thread of its own. The run
 * itself is carried in the request's context and, under {@value #RUN_KEY}, in the
 * {@code ToolContext}, where the tool-calling manager finds it and our tools read the
 * thread as their session (Spring AI's conversation id is set to it too, for tools of
 * your own that read it); no registry of runs exists. The run's tool calls are run by the
 * {@link GoverningToolCallingManager} the builder's manager is decorated with (once: an
 * already decorated manager is used as it is).
 *
 * <p>
 * A model whose options are not {@link ToolCallingChatOptions} cannot be given tools at
 * all: the advisor then only passes the request on, and logs one WARN (per options type)
 * naming the fix.
 *
 * <p>
 * Supplied through its builder, it replaces the {@link ToolCallingAdvisor} a
 * {@code ChatClient} registers: <pre>{@code
 * ChatClient client = ChatClient.builder(chatModel, observationRegistry, null, null,
 *         AgentToolCallingAdvisor.builder(agentRuns).toolCallingManager(toolCallingManager))
 *     .build();
 * client.prompt("Plan my trip").advisors((a) -> a.param(ChatMemory.CONVERSATION_ID, "trip-42")).call().content();
 * }</pre>
 */
public class AgentToolCallingAdvisor extends ToolCallingAdvisor {

	/**
	 * The tool-context (and request-context) key carrying the {@link AgentRun} a tool
	 * call belongs to.
	 */
	public static final String RUN_KEY = "agent.run";

	private static final Logger logger = LoggerFactory.getLogger(AgentToolCallingAdvisor.class);

	// Options types already warned about: one WARN per type, not one per call.
	private static final Set<Class<?>> optionsTypesWarned = ConcurrentHashMap.newKeySet();

	private final AgentRuns runs;

	/**
	 * Creates the advisor; use {@link #builder(AgentRuns)}.
	 * @param toolCallingManager runs the allowed tool calls; already wrapped for the loop
	 * @param eligibilityChecker decides whether a reply asks for tool calls
	 * @param order the advisor order
	 * @param conversationHistoryEnabled whether the loop keeps the conversation history
	 * itself
	 * @param runs starts agent runs
	 */
	AgentToolCallingAdvisor(GoverningToolCallingManager toolCallingManager,
			ToolExecutionEligibilityChecker eligibilityChecker, int order, boolean conversationHistoryEnabled,
			AgentRuns runs) {
		super(toolCallingManager, eligibilityChecker, order, conversationHistoryEnabled);
		this.runs = runs;
	}

	/**
	 * Starts a builder.
	 * @param runs starts agent runs: the composed middleware, the thread store and the
	 * loop guard
	 * @return the builder
	 */
	public static Builder builder(AgentRuns runs) {
		return new Builder(runs);
	}

	@Override
	public String getName() {
		return "Agent Tool Calling Advisor";
	}

	@Override
	public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
		if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions)) {
			warnToolsCannotReachTheModel(request);
			return super.adviseCall(request, chain);
		}
		AgentRun run = this.runs.start(threadId(request), principal(request));
		try {
			ChatClientResponse response = super.adviseCall(withRun(request, run), chain);
			finish(run, null);
			return response;
		}
		catch (BudgetSpentException ex) {
			finish(run, null);
			return finalAnswer(request, ex.getMessage());
		}
		catch (RuntimeException ex) {
			finish(run, ex);
			throw ex;
		}
	}

	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions)) {
			warnToolsCannotReachTheModel(request);
			return super.adviseStream(request, chain);
		}
		return Flux.defer(() -> {
			AgentRun run = this.runs.start(threadId(request), principal(request));
			return super.adviseStream(withRun(request, run), chain)
				.onErrorResume(BudgetSpentException.class, (ex) -> Flux.just(finalAnswer(request, ex.getMessage())))
				.concatWith(Flux.defer(() -> {
					finish(run, null);
					return Flux.<ChatClientResponse>empty();
				}))
				.doOnError((ex) -> finish(run, ex));
		});
	}

	// Without ToolCallingChatOptions Spring AI has nowhere to put the tools: the model is
	// offered none, and the tool
	// calls of a reply are not run (the answer is often ""). Silent in Spring AI; said
	// once per options type here.
	private static void warnToolsCannotReachTheModel(ChatClientRequest request) {
		Object options = request.prompt().getOptions();
		Class<?> type = (options != null) ? options.getClass() : Void.class;
		if (optionsTypesWarned.add(type) && logger.isWarnEnabled()) {
			logger.warn("The chat model's options ({}) are not ToolCallingChatOptions, so Spring AI cannot give it "
					+ "tools: the model is offered none, the tool calls of its replies are not run, and the answer "
					+ "can be empty. Use a Spring AI model module whose options implement ToolCallingChatOptions "
					+ "(such as spring-ai-starter-model-openai), or return ToolCallingChatOptions.builder().build() "
					+ "from the getOptions() of your own ChatModel. Logged once per options type.",
					(options != null) ? type.getName() : "none");
		}
	}

	private static ChatClientRequest withRun(ChatClientRequest request, AgentRun run) {
		return request.mutate().context(RUN_KEY, run).build();
	}

	// The caller of the run's tool calls (ToolCaller): the tool context's principal, else
	// the SecurityContext.
	private static @Nullable String principal(ChatClientRequest request) {
		Map<String, Object> toolContext = (request.prompt().getOptions() instanceof ToolCallingChatOptions options)
				? options.getToolContext() : null;
		ToolPrincipal principal = ToolCaller.of((toolContext != null) ? new ToolContext(toolContext) : null)
			.principal();
		return (principal != null) ? principal.name() : null;
	}

	// The loop's answer when a budget is spent before a model call: the model is not
	// called.
	private static ChatClientResponse finalAnswer(ChatClientRequest request, String text) {
		ChatResponse answer = ChatResponse.builder()
			.generations(List.of(new Generation(new AssistantMessage(text))))
			.build();
		return ChatClientResponse.builder().chatResponse(answer).context(request.context()).build();
	}

	private static String threadId(ChatClientRequest request) {
		Object conversation = request.context().get(ChatMemory.CONVERSATION_ID);
		if (conversation == null && request.prompt().getOptions() instanceof ToolCallingChatOptions options
				&& options.getToolContext() != null) {
			conversation = options.getToolContext().get(AgentToolCallback.SESSION_ID_KEY);
			if (conversation == null) {
				conversation = options.getToolContext().get(ChatMemory.CONVERSATION_ID);
			}
		}
		return (conversation != null) ? conversation.toString() : "run-" + UUID.randomUUID();
	}

	@Override
	protected ChatClientRequest doBeforeCall(ChatClientRequest request, CallAdvisorChain chain) {
		return beforeIteration(request);
	}

	@Override
	protected ChatClientRequest doBeforeStream(ChatClientRequest request, StreamAdvisorChain chain) {
		return beforeIteration(request);
	}

	private ChatClientRequest beforeIteration(ChatClientRequest request) {
		AgentRun run = run(request.context());
		if (run == null) {
			return request;
		}
		String spent = run.budgetSpent();
		if (spent != null) {
			throw new BudgetSpentException(spent);
		}
		run.beginIteration(AgentMessages.of(request.prompt().getInstructions()));
		ToolCallingChatOptions options = (ToolCallingChatOptions) request.prompt().getOptions();
		Objects.requireNonNull(options, "options");
		ToolCallingChatOptions withThread = options.mutate()
			.toolContext(ChatMemory.CONVERSATION_ID, run.threadId())
			.toolContext(RUN_KEY, run)
			.build();
		return request.mutate().prompt(new Prompt(request.prompt().getInstructions(), withThread)).build();
	}

	@Override
	protected ChatClientResponse doAfterCall(ChatClientResponse response, CallAdvisorChain chain) {
		return afterModelCall(response);
	}

	@Override
	protected ChatClientResponse doAfterStream(ChatClientResponse response, StreamAdvisorChain chain) {
		return afterModelCall(response);
	}

	private ChatClientResponse afterModelCall(ChatClientResponse response) {
		AgentRun run = run(response.context());
		if (run != null) {
			run.count(AgentMessages.usage(response.chatResponse()));
			run.replied(reply(response));
		}
		return response;
	}

	@Override
	protected List<Message> doGetNextInstructionsForToolCall(ChatClientRequest request, ChatClientResponse response,
			ToolExecutionResult result) {
		return nextInstructions(request, super.doGetNextInstructionsForToolCall(request, response, result));
	}

	@Override
	protected List<Message> doGetNextInstructionsForToolCallStream(ChatClientRequest request,
			ChatClientResponse response, ToolExecutionResult result) {
		return nextInstructions(request, super.doGetNextInstructionsForToolCallStream(request, response, result));
	}

	private List<Message> nextInstructions(ChatClientRequest request, List<Message> instructions) {
		AgentRun run = run(request.context());
		if (run == null) {
			return instructions;
		}
		endIteration(run);
		List<String> notes = run.takeNextInput();
		if (notes.isEmpty()) {
			return instructions;
		}
		List<Message> next = new ArrayList<>(instructions);
		notes.forEach((note) -> next.add(new UserMessage(note)));
		return next;
	}

	// An iteration the tool-calling manager did not end (the model replied without tool
	// calls) ends with the reply.
	private static void endIteration(AgentRun run) {
		if (run.iterationOpen()) {
			run.endIteration(new IterationResult(run.lastReply(), List.of()));
		}
	}

	private static void finish(AgentRun run, @Nullable Throwable failure) {
		if (!run.end()) {
			return;
		}
		if (failure == null) {
			endIteration(run);
			return;
		}
		if (failure instanceof AgentMiddlewareException || !run.iterationOpen()) {
			return;
		}
		try {
			run.endIteration(new IterationResult(run.lastReply(), List.of(AgentEvent.failure(failure))));
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
			logger.debug("An afterIteration hook failed after the iteration itself failed", ex);
		}
	}

	private static @Nullable AgentMessage reply(@Nullable ChatClientResponse response) {
		ChatResponse chatResponse = (response != null) ? response.chatResponse() : null;
		if (chatResponse == null || chatResponse.getResult() == null) {
			return null;
		}
		AssistantMessage output = chatResponse.getResult().getOutput();
		return AgentMessages.of(output);
	}

	private static @Nullable AgentRun run(Map<String, @Nullable Object> context) {
		return (context.get(RUN_KEY) instanceof AgentRun run) ? run : null;
	}

	/**
	 * Ends the loop before a model call when a budget is spent; caught where the run
	 * started, whose answer it becomes. Without a stack trace: it is a decision, not an
	 * error.
	 */
	private static final class BudgetSpentException extends RuntimeException {

		BudgetSpentException(String answer) {
			super(answer, null, false, false);
		}

		@Override
		public String getMessage() {
			return Objects.requireNonNull(super.getMessage());
		}

	}

	/**
	 * Builds an {@link AgentToolCallingAdvisor}; the {@link ToolCallingManager} given
	 * (default: Spring AI's) runs the tool calls the loop guard allows, decorated once by
	 * the {@link GoverningToolCallingManager} unless it already is one.
	 */
	public static class Builder extends ToolCallingAdvisor.Builder<Builder> {

		private final AgentRuns runs;

		/**
		 * Creates a builder; use {@link AgentToolCallingAdvisor#builder(AgentRuns)}.
		 * @param runs starts agent runs
		 */
		protected Builder(AgentRuns runs) {
			this.runs = Objects.requireNonNull(runs, "runs");
		}

		@Override
		protected ToolCallingAdvisor.Builder<?> newCopy() {
			return new Builder(this.runs);
		}

		@Override
		public AgentToolCallingAdvisor build() {
			ToolCallingManager manager = getToolCallingManager();
			GoverningToolCallingManager governing = (manager instanceof GoverningToolCallingManager decorated)
					? decorated : GoverningToolCallingManager.loopOnly(manager);
			return new AgentToolCallingAdvisor(governing, getToolExecutionEligibilityChecker(), getAdvisorOrder(),
					isConversationHistoryEnabled(), this.runs);
		}

	}

}
