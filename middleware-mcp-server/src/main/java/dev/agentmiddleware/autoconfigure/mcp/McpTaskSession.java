package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;

import dev.agentmiddleware.chain.CallCancellation;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

/**
 * The MCP SDK's view of a call running as a task (the tasks extension of MCP
 * {@code 2026-07-28}), so that its handler runs unchanged: a request the handler sends
 * its client (an elicitation, a sampling request, by {@code ToolClient} or an approval
 * asked of the client's user) parks the task in {@code input_required} with the request
 * under a key of its own in the task's {@code inputRequests}, and waits until a
 * {@code tasks/update} delivered the answer to the store, which it reads every check
 * interval, on any instance. The wait ends when the call is cancelled (the thread that
 * waits is interrupted, or the task is found cancelled or gone). Several requests may
 * wait at once, each on its own thread. A task has no stream: notifications (progress,
 * log messages) are dropped.
 */
final class McpTaskSession implements McpLoggableSession {

	private final String taskId;

	private final McpTaskStore store;

	private final McpJsonMapper jsonMapper;

	private final CallCancellation cancellation;

	private final Duration checkInterval;

	private final Clock clock;

	McpTaskSession(String taskId, McpTaskStore store, McpJsonMapper jsonMapper, CallCancellation cancellation,
			Duration checkInterval, Clock clock) {
		this.taskId = taskId;
		this.store = store;
		this.jsonMapper = jsonMapper;
		this.cancellation = cancellation;
		this.checkInterval = checkInterval;
		this.clock = clock;
	}

	@Override
	public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
		return Mono.fromCallable(() -> this.jsonMapper.convertValue(ask(method, requestParams), typeRef));
	}

	// Parks the task on the question and waits for its answer
	private Object ask(String method, Object requestParams) throws InterruptedException {
		String key = UUID.randomUUID().toString();
		Map<String, Object> request = new LinkedHashMap<>();
		request.put("method", method);
		Map<String, Object> params = this.jsonMapper.convertValue(requestParams, StatelessMcpTasks.MAP);
		// The task's own key names the question: the tool's is an internal marker
		McpInputRound.takeKey(params);
		request.put("params", params);
		McpTask asked = this.store.update(this.taskId, (task) -> task.asking(key, request, this.clock.millis()));
		while (true) {
			if (asked == null || asked.isTerminal()) {
				throw new CancellationException("Task " + this.taskId + " ended while it waited for its client");
			}
			if (asked.inputResponses().containsKey(key)) {
				Object answer = asked.inputResponses().get(key);
				this.store.update(this.taskId, (task) -> task.taken(key));
				return answer;
			}
			if (this.cancellation.await(this.checkInterval)) {
				throw new CancellationException(
						"Task " + this.taskId + " was cancelled while it waited for its client");
			}
			asked = this.store.find(this.taskId);
		}
	}

	@Override
	public Mono<Void> sendNotification(String method, Object params) {
		return Mono.empty();
	}

	@Override
	public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
	}

	@Override
	public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
		return false;
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.empty();
	}

	@Override
	public void close() {
	}

}
