package dev.agentmiddleware.spring.ai;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.agent.AgentEvent;
import dev.agentmiddleware.agent.IterationResult;
import dev.agentmiddleware.agent.ToolCallDecision;
import dev.agentmiddleware.callrecord.ToolCallRecord;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.UnknownToolException;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The tool execution of {@link AgentToolCallingAdvisor}'s loop: asks the run's loop guard about every tool call of
 * the model's reply, lets the delegate run the allowed ones, answers the others with the guard's text, and records
 * what happened as the iteration's events. Every tool call of the reply gets exactly one answer, in order.
 */
final class AgentLoopToolCallingManager implements ToolCallingManager {

	private final ToolCallingManager delegate;

	private final Map<String, AgentLoopState> loops;

	AgentLoopToolCallingManager(ToolCallingManager delegate, Map<String, AgentLoopState> loops) {
		this.delegate = delegate;
		this.loops = loops;
	}

	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		return this.delegate.resolveToolDefinitions(chatOptions);
	}

	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		AgentLoopState loop = loop(prompt);
		Generation generation = chatResponse.getResults()
			.stream()
			.filter((each) -> each.getOutput().hasToolCalls())
			.findFirst()
			.orElse(null);
		if (loop == null || generation == null) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		AssistantMessage reply = generation.getOutput();
		List<ToolCallDecision> decisions = loop.run.decide(AgentMessages.toolCalls(reply.getToolCalls()));
		List<AssistantMessage.ToolCall> allowed = new ArrayList<>();
		for (int i = 0; i < decisions.size(); i++) {
			if (decisions.get(i).runs()) {
				allowed.add(reply.getToolCalls().get(i));
			}
		}
		Map<String, ToolResponseMessage.ToolResponse> answers = new HashMap<>();
		List<ToolCallRecord> records = List.of();
		boolean returnDirect = false;
		if (!allowed.isEmpty()) {
			ChatResponse allowedResponse = ChatResponse.builder()
				.from(chatResponse)
				.generations(List.of(new Generation(reply.mutate().toolCalls(allowed).build(),
						generation.getMetadata())))
				.build();
			IterationEventRecorder.Recorded<ToolExecutionResult> executed = IterationEventRecorder
				.recording(() -> this.delegate.executeToolCalls(prompt, allowedResponse));
			records = executed.records();
			returnDirect = executed.result().returnDirect();
			List<Message> history = executed.result().conversationHistory();
			if (!history.isEmpty() && history.get(history.size() - 1) instanceof ToolResponseMessage responses) {
				responses.getResponses().forEach((response) -> answers.put(response.id(), response));
			}
		}
		List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>(decisions.size());
		List<AgentEvent> events = new ArrayList<>(decisions.size());
		Map<String, Integer> recordIndexByTool = new HashMap<>();
		boolean endsRun = false;
		for (ToolCallDecision decision : decisions) {
			String id = decision.call().id();
			String name = decision.call().name();
			if (!decision.runs()) {
				String answer = decision.answer();
				responses.add(new ToolResponseMessage.ToolResponse(id, name, answer));
				events.add(AgentEvent.guarded(id, name, answer));
				endsRun |= decision.endsRun();
				continue;
			}
			ToolResponseMessage.ToolResponse response = answers.get(id);
			String text = (response != null) ? response.responseData() : "";
			responses.add((response != null) ? response : new ToolResponseMessage.ToolResponse(id, name, text));
			ToolCallRecord record = nextRecord(records, name, recordIndexByTool);
			if (record != null && isError(record.outcome())) {
				events.add(AgentEvent.toolError(id, name, text, record.error()));
			}
			else if (record == null && isOurs(prompt, name)) {
				// Our callbacks refuse bad arguments before the chain, so no record: the text says why.
				events.add(AgentEvent.toolError(id, name, text, null));
			}
			else {
				events.add(AgentEvent.toolResult(id, name, text));
			}
		}
		List<Message> history = new ArrayList<>(prompt.getInstructions());
		history.add(reply);
		history.add(ToolResponseMessage.builder().responses(responses).build());
		loop.toolResult = new IterationResult(AgentMessages.of(reply), events);
		loop.toolResultIteration = loop.run.iteration();
		return ToolExecutionResult.builder().conversationHistory(history).returnDirect(returnDirect || endsRun).build();
	}

	private @Nullable AgentLoopState loop(Prompt prompt) {
		if (prompt.getOptions() instanceof ToolCallingChatOptions options && options.getToolContext() != null
				&& options.getToolContext().get(AgentToolCallingAdvisor.RUN_ID_KEY) instanceof String runId) {
			return this.loops.get(runId);
		}
		return null;
	}

	private static @Nullable ToolCallRecord nextRecord(List<ToolCallRecord> records, String toolName,
			Map<String, Integer> indexByTool) {
		int seen = indexByTool.getOrDefault(toolName, 0);
		int matched = 0;
		for (ToolCallRecord record : records) {
			if (calledName(record).equals(toolName)) {
				if (matched == seen) {
					indexByTool.put(toolName, seen + 1);
					return record;
				}
				matched++;
			}
		}
		return null;
	}

	// A call of a tool that does not exist is recorded under a fixed name; the exception has the one called.
	private static String calledName(ToolCallRecord record) {
		return (record.error() instanceof UnknownToolException unknown) ? unknown.toolName()
				: record.invocation().toolName();
	}

	private static boolean isError(CallOutcome outcome) {
		return outcome == CallOutcome.FAILED || outcome == CallOutcome.DENIED || outcome == CallOutcome.FORBIDDEN
				|| outcome == CallOutcome.RATE_LIMITED || outcome == CallOutcome.TIMED_OUT
				|| outcome == CallOutcome.UNKNOWN_TOOL;
	}

	private static boolean isOurs(Prompt prompt, String toolName) {
		if (prompt.getOptions() instanceof ToolCallingChatOptions options && options.getToolCallbacks() != null) {
			for (ToolCallback callback : options.getToolCallbacks()) {
				if (callback.getToolDefinition().name().equals(toolName)) {
					return GovernedToolCallback.isGoverned(callback);
				}
			}
		}
		return false;
	}

}
