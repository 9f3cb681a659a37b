package dev.agentmiddleware.spring.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.agent.AgentEvent;
import dev.agentmiddleware.agent.AgentMessage;
import dev.agentmiddleware.agent.AgentMiddlewareException;
import dev.agentmiddleware.agent.AgentRuns;
import dev.agentmiddleware.agent.IterationResult;
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
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionEligibilityChecker;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * Spring AI's tool-calling loop with agent-level middleware: on every iteration of the loop (one model call and
 * the tool calls it asks for), on the call and the stream paths, runs the {@code beforeIteration} hooks before the
 * model call and the {@code afterIteration} hooks once the tool calls are answered (or the model replied without
 * any); asks the loop guard about every tool call, answering the calls a limit stops instead of running them; and
 * adds what hooks left for the next iteration's input (such as the error-recovery hint) after the tool answers.
 *
 * <p>The run's thread is the conversation id ({@link ChatMemory#CONVERSATION_ID} among the advisor parameters or in
 * the tool context, or {@value AgentToolCallback#SESSION_ID_KEY} in the tool context); a request without one gets a
 * fresh thread of its own. The advisor copies the thread into the {@code ToolContext}, so tools (such as the todo
 * tools) see it as their session.
 *
 * <p>A model whose options are not {@link ToolCallingChatOptions} cannot be given tools at all: the advisor then
 * only passes the request on, and logs one WARN (per options type) naming the fix.
 *
 * <p>Supplied through its builder, it replaces the {@link ToolCallingAdvisor} a {@code ChatClient} registers:
 * <pre>{@code
 * ChatClient client = ChatClient.builder(chatModel, observationRegistry, null, null,
 *         AgentToolCallingAdvisor.builder(agentRuns).toolCallingManager(toolCallingManager))
 *     .build();
 * client.prompt("Plan my trip").advisors((a) -> a.param(ChatMemory.CONVERSATION_ID, "trip-42")).call().content();
 * }</pre>
 */
public class AgentToolCallingAdvisor extends ToolCallingAdvisor {

	/** The tool-context key carrying the id of the loop run a tool call belongs to. */
	public static final String RUN_ID_KEY = "agent.run-id";

	private static final String RUN_CONTEXT_KEY = AgentToolCallingAdvisor.class.getName() + ".run";

	private static final Logger logger = LoggerFactory.getLogger(AgentToolCallingAdvisor.class);

	// Options types already warned about: one WARN per type, not one per call.
	private static final Set<Class<?>> optionsTypesWarned = ConcurrentHashMap.newKeySet();

	private final AgentRuns runs;

	private final Map<String, AgentLoopState> loops;

	/**
	 * Creates the advisor; use {@link #builder(AgentRuns)}.
	 * @param toolCallingManager runs the allowed tool calls; already wrapped for the loop
	 * @param eligibilityChecker decides whether a reply asks for tool calls
	 * @param order the advisor order
	 * @param conversationHistoryEnabled whether the loop keeps the conversation history itself
	 * @param runs starts agent runs
	 * @param loops the running loops, shared with the tool-calling manager
	 */
	AgentToolCallingAdvisor(ToolCallingManager toolCallingManager,
			ToolExecutionEligibilityChecker eligibilityChecker, int order, boolean conversationHistoryEnabled,
			AgentRuns runs, Map<String, AgentLoopState> loops) {
		super(toolCallingManager, eligibilityChecker, order, conversationHistoryEnabled);
		this.runs = runs;
		this.loops = loops;
	}

	/**
	 * Starts a builder.
	 * @param runs starts agent runs: the composed middleware, the thread store and the loop guard
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
		AgentLoopState loop = start(request);
		try {
			ChatClientResponse response = super.adviseCall(withRun(request, loop), chain);
			finish(loop, null);
			return response;
		}
		catch (RuntimeException ex) {
			finish(loop, ex);
			throw ex;
		}
		finally {
			this.loops.remove(loop.runId);
		}
	}

	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions)) {
			warnToolsCannotReachTheModel(request);
			return super.adviseStream(request, chain);
		}
		return Flux.defer(() -> {
			AgentLoopState loop = start(request);
			return super.adviseStream(withRun(request, loop), chain)
				.concatWith(Flux.defer(() -> {
					finish(loop, null);
					return Flux.<ChatClientResponse>empty();
				}))
				.doOnError((ex) -> finish(loop, ex))
				.doFinally((signal) -> this.loops.remove(loop.runId));
		});
	}

	// Without ToolCallingChatOptions Spring AI has nowhere to put the tools: the model is offered none, and the tool
	// calls of a reply are not run (the answer is often ""). Silent in Spring AI; said once per options type here.
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

	private AgentLoopState start(ChatClientRequest request) {
		String threadId = threadId(request);
		AgentLoopState loop = new AgentLoopState(UUID.randomUUID().toString(), this.runs.start(threadId));
		this.loops.put(loop.runId, loop);
		return loop;
	}

	private static ChatClientRequest withRun(ChatClientRequest request, AgentLoopState loop) {
		return request.mutate().context(RUN_CONTEXT_KEY, loop.runId).build();
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
		AgentLoopState loop = loop(request);
		if (loop == null) {
			return request;
		}
		loop.run.beginIteration(AgentMessages.of(request.prompt().getInstructions()));
		ToolCallingChatOptions options = (ToolCallingChatOptions) request.prompt().getOptions();
		Objects.requireNonNull(options, "options");
		ToolCallingChatOptions withThread = options.mutate()
			.toolContext(ChatMemory.CONVERSATION_ID, loop.run.threadId())
			.toolContext(AgentToolCallback.SESSION_ID_KEY, loop.run.threadId())
			.toolContext(RUN_ID_KEY, loop.runId)
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
		AgentLoopState loop = loop(response.context());
		if (loop != null) {
			loop.lastResponse = response;
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
		AgentLoopState loop = loop(request);
		if (loop == null) {
			return instructions;
		}
		endIteration(loop);
		List<String> notes = loop.run.takeNextInput();
		if (notes.isEmpty()) {
			return instructions;
		}
		List<Message> next = new ArrayList<>(instructions);
		notes.forEach((note) -> next.add(new UserMessage(note)));
		return next;
	}

	private void endIteration(AgentLoopState loop) {
		if (!loop.run.iterationOpen()) {
			return;
		}
		IterationResult result = loop.toolResult;
		if (result == null || loop.toolResultIteration != loop.run.iteration()) {
			result = new IterationResult(reply(loop.lastResponse), List.of());
		}
		loop.run.endIteration(result);
	}

	private void finish(AgentLoopState loop, @Nullable Throwable failure) {
		if (!loop.run.end()) {
			return;
		}
		if (failure == null) {
			endIteration(loop);
			return;
		}
		if (failure instanceof AgentMiddlewareException || !loop.run.iterationOpen()) {
			return;
		}
		try {
			loop.run.endIteration(new IterationResult(reply(loop.lastResponse), List.of(AgentEvent.failure(failure))));
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

	private @Nullable AgentLoopState loop(ChatClientRequest request) {
		return loop(request.context());
	}

	private @Nullable AgentLoopState loop(Map<String, @Nullable Object> context) {
		Object runId = context.get(RUN_CONTEXT_KEY);
		return (runId != null) ? this.loops.get(runId.toString()) : null;
	}

	/**
	 * Builds an {@link AgentToolCallingAdvisor}; the {@link ToolCallingManager} given (default: Spring AI's) runs
	 * the tool calls the loop guard allows.
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
			Map<String, AgentLoopState> loops = new ConcurrentHashMap<>();
			return new AgentToolCallingAdvisor(new AgentLoopToolCallingManager(getToolCallingManager(), loops),
					getToolExecutionEligibilityChecker(), getAdvisorOrder(), isConversationHistoryEnabled(), this.runs,
					loops);
		}

	}

}
