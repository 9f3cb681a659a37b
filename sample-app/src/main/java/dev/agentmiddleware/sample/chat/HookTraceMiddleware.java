package dev.agentmiddleware.sample.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.agent.AgentMiddleware.IterationContext;
import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.tool.SessionFingerprint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * An agent middleware of your own, in a few lines: logs every iteration of the tool loop
 * (what the model asked for and how each tool call ended) and keeps the lines of each
 * conversation's latest turn for the {@code /chat} response. Declaring it as a bean is
 * all it takes; it runs after the built-ins.
 */
@Component
public final class HookTraceMiddleware implements AgentMiddleware {

	private static final Logger logger = LoggerFactory.getLogger(HookTraceMiddleware.class);

	private static final int MAX_LINES = 200;

	private final Map<String, List<String>> traces = new ConcurrentHashMap<>();

	@Override
	public String name() {
		return "hook-trace";
	}

	@Override
	public void beforeIteration(IterationContext context) {
		trace(context, "iteration " + context.iteration() + " before: the model gets " + context.messages().size()
				+ " messages");
	}

	@Override
	public void afterIteration(IterationContext context, IterationResult result) {
		String asked = (result.reply() != null && !result.reply().toolCalls().isEmpty()) ? result.reply()
			.toolCalls()
			.stream()
			.map((call) -> call.name())
			.collect(Collectors.joining(", ", "asked for ", "")) : "answered";
		String events = result.events().stream().map(HookTraceMiddleware::describe).collect(Collectors.joining("; "));
		trace(context,
				"iteration " + context.iteration() + " after: " + asked + (events.isEmpty() ? "" : " -> " + events));
	}

	/**
	 * Takes the trace of a conversation's latest turn.
	 * @param conversationId the conversation
	 * @return the lines, oldest first; the middleware forgets them
	 */
	List<String> take(String conversationId) {
		List<String> lines = this.traces.remove(conversationId);
		return (lines != null) ? lines : List.of();
	}

	private void trace(IterationContext context, String line) {
		logger.info("agent [{}] {}", SessionFingerprint.of(context.threadId()), line);
		List<String> lines = this.traces.computeIfAbsent(context.threadId(), (id) -> new ArrayList<>());
		synchronized (lines) {
			if (lines.size() < MAX_LINES) {
				lines.add(line);
			}
		}
	}

	private static String describe(AgentEvent event) {
		String text = event.text().replaceAll("\\s+", " ");
		if (text.length() > 80) {
			text = text.substring(0, 77) + "...";
		}
		return event.toolName() + " " + event.kind().name().toLowerCase(java.util.Locale.ROOT) + ": " + text;
	}

}
