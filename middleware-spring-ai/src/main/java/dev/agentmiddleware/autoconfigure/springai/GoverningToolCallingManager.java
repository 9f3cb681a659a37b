package dev.agentmiddleware.autoconfigure.springai;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.agent.AgentRun.ToolCallDecision;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizedTools;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.util.StringUtils;

/**
 * Our one seam at Spring AI's tool execution: decorates Spring AI's
 * {@link ToolCallingManager}, once, so that
 * <ul>
 * <li>the model is offered only the tools its caller may call
 * ({@link #resolveToolDefinitions}, which Spring AI's model modules ask for the tools of
 * their request): the caller is the one its tool calls have (see {@code ToolCaller}), and
 * {@link AuthorizedTools} decides, by the rule that refuses its calls and filters an MCP
 * client's {@code tools/list}. A call of a tool it was not offered still reaches that
 * tool's chain, which refuses it;</li>
 * <li>tools registered the Spring AI way ({@code @Tool} methods, function callbacks, any
 * other {@link ToolCallback}) pass our middleware chain too: every callback of the
 * request that does not already run our chain is {@linkplain GovernedToolCallback#govern
 * governed}, our own are left alone, so each call passes the chain exactly once;</li>
 * <li>a tool call that names a tool the request does not have is answered to the model as
 * a tool error naming the tool and the ones that exist (outcome {@code unknown_tool}, see
 * {@link AgentToolRegistry#callUnknown}) instead of failing the whole turn;</li>
 * <li>in a run of {@link AgentToolCallingAdvisor} (the {@link AgentRun} under
 * {@value AgentToolCallingAdvisor#RUN_KEY} in the tool context), the run's loop guard
 * decides every tool call of the model's reply, the delegate runs the allowed ones, the
 * others are answered with the guard's text, and the iteration ends with what happened as
 * its events. Each call runs with a {@link ToolCallReport} of its own in its tool
 * context, so its result and failure are joined to the call by the model's tool-call
 * id.</li>
 * </ul>
 * Everything else is the delegate's, including Spring AI's own per-turn limits.
 * <pre>{@code
 * ToolCallingManager manager = new GoverningToolCallingManager(ToolCallingManager.builder().build(), registry,
 *         errorFormatter, new AuthorizedTools(() -> registry, () -> authorization, () -> rules,
 *                 InvocationSource.SPRING_AI));
 * }</pre>
 */
final class GoverningToolCallingManager implements ToolCallingManager {

	private final ToolCallingManager delegate;

	private final @Nullable AgentToolRegistry registry;

	private final @Nullable ToolErrorFormatter errorFormatter;

	private final @Nullable AuthorizedTools authorizedTools;

	/**
	 * Creates the decorator.
	 * @param delegate Spring AI's manager, which runs the tool calls
	 * @param registry the registry governed tools join
	 * @param errorFormatter turns failures into text for the model
	 * @param authorizedTools decides which tools a caller is offered
	 */
	GoverningToolCallingManager(ToolCallingManager delegate, AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter, AuthorizedTools authorizedTools) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.registry = Objects.requireNonNull(registry, "registry");
		this.errorFormatter = Objects.requireNonNull(errorFormatter, "errorFormatter");
		this.authorizedTools = Objects.requireNonNull(authorizedTools, "authorizedTools");
	}

	private GoverningToolCallingManager(ToolCallingManager delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.registry = null;
		this.errorFormatter = null;
		this.authorizedTools = null;
	}

	/**
	 * The decorator for a manager that governs no callbacks (governing is switched off):
	 * it only runs the agent loop's side of tool execution, and offers the model every
	 * tool.
	 * @param delegate the manager that runs the tool calls
	 * @return the decorator
	 */
	static GoverningToolCallingManager loopOnly(ToolCallingManager delegate) {
		return new GoverningToolCallingManager(delegate);
	}

	/**
	 * The decorated manager.
	 * @return the delegate
	 */
	public ToolCallingManager delegate() {
		return this.delegate;
	}

	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		List<ToolDefinition> definitions = this.delegate.resolveToolDefinitions(chatOptions);
		AuthorizedTools authorizedTools = this.authorizedTools;
		AgentToolRegistry registry = this.registry;
		if (authorizedTools == null || registry == null || definitions.isEmpty()) {
			return definitions;
		}
		Map<String, Object> toolContext = chatOptions.getToolContext();
		ToolPrincipal caller = ToolCaller.of((toolContext != null) ? new ToolContext(toolContext) : null).principal();
		Map<String, ToolCallback> callbacks = new HashMap<>();
		if (chatOptions.getToolCallbacks() != null) {
			chatOptions.getToolCallbacks()
				.forEach((callback) -> callbacks.putIfAbsent(callback.getToolDefinition().name(), callback));
		}
		List<ToolDefinition> offered = new ArrayList<>(definitions.size());
		for (ToolDefinition definition : definitions) {
			if (offers(definition.name(), callbacks.get(definition.name()), caller, registry, authorizedTools)) {
				offered.add(definition);
			}
		}
		return offered;
	}

	// A tool of the Spring AI way is registered when its first call is governed: until
	// then it is judged by the
	// descriptor governing will register it with, so that it is offered the same from the
	// first turn on.
	private static boolean offers(String name, @Nullable ToolCallback callback, @Nullable ToolPrincipal caller,
			AgentToolRegistry registry, AuthorizedTools authorizedTools) {
		if (callback != null && !GovernedToolCallback.isGoverned(callback) && registry.find(name).isEmpty()) {
			return authorizedTools.permits(GovernedToolCallback.descriptor(callback), caller);
		}
		return authorizedTools.permits(name, caller);
	}

	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options)) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		ToolCallingChatOptions governed = governed(options, chatResponse);
		Prompt governedPrompt = (governed != options) ? new Prompt(prompt.getInstructions(), governed) : prompt;
		AgentRun run = (options.getToolContext() != null
				&& options.getToolContext().get(AgentToolCallingAdvisor.RUN_KEY) instanceof AgentRun agentRun)
						? agentRun : null;
		Generation generation = chatResponse.getResults()
			.stream()
			.filter((each) -> each.getOutput().hasToolCalls())
			.findFirst()
			.orElse(null);
		if (run == null || generation == null) {
			return this.delegate.executeToolCalls(governedPrompt, chatResponse);
		}
		return executeInRun(run, governedPrompt, governed, chatResponse, generation);
	}

	private ToolExecutionResult executeInRun(AgentRun run, Prompt prompt, ToolCallingChatOptions options,
			ChatResponse chatResponse, Generation generation) {
		AssistantMessage reply = generation.getOutput();
		List<ToolCallDecision> decisions = run.decide(AgentMessages.toolCalls(reply.getToolCalls()));
		List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>(decisions.size());
		List<AgentEvent> events = new ArrayList<>(decisions.size());
		boolean returnDirect = true;
		boolean ranAny = false;
		boolean endsRun = false;
		for (int i = 0; i < decisions.size(); i++) {
			ToolCallDecision decision = decisions.get(i);
			String id = decision.call().id();
			String name = decision.call().name();
			if (!decision.runs()) {
				String answer = Objects.requireNonNull(decision.answer());
				responses.add(new ToolResponseMessage.ToolResponse(id, name, answer));
				events.add(AgentEvent.guarded(id, name, answer));
				endsRun |= decision.endsRun();
				continue;
			}
			ToolCallReport report = new ToolCallReport(id);
			ToolExecutionResult executed = this.delegate.executeToolCalls(
					new Prompt(prompt.getInstructions(),
							options.mutate().toolContext(ToolCallReport.KEY, report).build()),
					only(chatResponse, generation, reply.getToolCalls().get(i)));
			ranAny = true;
			returnDirect &= executed.returnDirect();
			ToolResponseMessage.ToolResponse response = response(executed, id);
			String text = (response != null) ? response.responseData() : "";
			responses.add((response != null) ? response : new ToolResponseMessage.ToolResponse(id, name, text));
			Exception error = report.error();
			events.add((error != null) ? AgentEvent.toolError(id, name, text, error)
					: AgentEvent.toolResult(id, name, text));
		}
		List<Message> history = new ArrayList<>(prompt.getInstructions());
		history.add(reply);
		history.add(ToolResponseMessage.builder().responses(responses).build());
		run.endIteration(new IterationResult(AgentMessages.of(reply), events));
		return ToolExecutionResult.builder()
			.conversationHistory(history)
			.returnDirect((ranAny && returnDirect) || endsRun)
			.build();
	}

	// The reply cut down to one of its tool calls, for the delegate to run that call
	// alone.
	private static ChatResponse only(ChatResponse chatResponse, Generation generation, AssistantMessage.ToolCall call) {
		AssistantMessage one = generation.getOutput().mutate().toolCalls(List.of(call)).build();
		return ChatResponse.builder()
			.from(chatResponse)
			.generations(List.of(new Generation(one, generation.getMetadata())))
			.build();
	}

	private static ToolResponseMessage.@Nullable ToolResponse response(ToolExecutionResult executed, String id) {
		List<Message> history = executed.conversationHistory();
		if (!history.isEmpty() && history.get(history.size() - 1) instanceof ToolResponseMessage responses) {
			for (ToolResponseMessage.ToolResponse response : responses.getResponses()) {
				if (id.equals(response.id())) {
					return response;
				}
			}
		}
		return null;
	}

	// The request's options with every callback governed and a stand-in for each unknown
	// tool called; the options
	// themselves when nothing changes (or governing is off).
	private ToolCallingChatOptions governed(ToolCallingChatOptions options, ChatResponse chatResponse) {
		AgentToolRegistry registry = this.registry;
		ToolErrorFormatter errorFormatter = this.errorFormatter;
		if (registry == null || errorFormatter == null) {
			return options;
		}
		List<ToolCallback> callbacks = (options.getToolCallbacks() != null) ? options.getToolCallbacks() : List.of();
		List<ToolCallback> governed = new ArrayList<>(callbacks.size());
		boolean changed = false;
		for (ToolCallback callback : callbacks) {
			ToolCallback each = GovernedToolCallback.govern(callback, registry, errorFormatter);
			changed |= (each != callback);
			governed.add(each);
		}
		changed |= answerUnknownTools(governed, chatResponse, registry, errorFormatter);
		return changed ? options.mutate().toolCallbacks(governed).build() : options;
	}

	// Spring AI throws "No ToolCallback found for tool name" for a call it cannot
	// resolve, and the turn is lost: a
	// stand-in callback per unknown name answers the model with a tool error instead. A
	// name is known when the
	// request has a callback of that name: those are the tools the model was offered.
	private static boolean answerUnknownTools(List<ToolCallback> callbacks, ChatResponse chatResponse,
			AgentToolRegistry registry, ToolErrorFormatter errorFormatter) {
		Set<String> known = new TreeSet<>();
		callbacks.forEach((callback) -> known.add(callback.getToolDefinition().name()));
		List<String> available = List.copyOf(known);
		boolean added = false;
		for (Generation generation : chatResponse.getResults()) {
			for (AssistantMessage.ToolCall call : generation.getOutput().getToolCalls()) {
				String name = call.name();
				if (StringUtils.hasText(name) && known.add(name)) {
					callbacks.add(new UnknownToolCallback(name, available, registry, errorFormatter));
					added = true;
				}
			}
		}
		return added;
	}

}
