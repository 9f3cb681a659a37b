package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The composition of the multi round-trip requests of MCP {@code 2026-07-28} (SEP-2322,
 * {@link StatelessMcpInputs}) with its tasks extension (SEP-2663,
 * {@link StatelessMcpTasks}), for a tool declared
 * {@link dev.agentmiddleware.spring.AgentTool#inputBeforeTask()
 * &#64;AgentTool(inputBeforeTask = true)} called as a task: the call gathers its input by
 * {@code input_required} rounds, then escalates to a task on the round that has
 * everything it asked for, and the task goes on with the answers of that round.
 *
 * <p>
 * Each round runs the handler from the start (the replay model) on a thread of the tasks,
 * with the round's answers, while the request's thread waits for the first of:
 * <ul>
 * <li>the handler asks something the round does not answer (or an answer does not fit):
 * it unwinds, and the request answers {@code input_required} with the sealed
 * {@code requestState}, as any call does; no task is created;</li>
 * <li>the handler takes the last answer the client gave (of this round or, through the
 * state, of earlier ones): the call <em>escalates</em> at that instant, before the
 * handler gets the answer. The task is created in the {@link McpTaskStore}, the request
 * answers the {@code CreateTaskResult} ({@code taskId}, {@code status}; no
 * {@code requestState}), and the handler goes on as the task's call: a request it sends
 * its client from then on parks the task in {@code input_required}
 * ({@link McpTaskSession}, answered by {@code tasks/update}), and its end is written to
 * the store;</li>
 * <li>the handler ends without having escalated (a round with no answer to take, in which
 * it asked nothing): the request answers the task, created completed with the result; a
 * handler's protocol error ({@code -32021}) is the request's error.</li>
 * </ul>
 * Every outcome follows from what the handler does, never from how long it takes: no
 * timer decides. An approval asked of the client's user is an input request of the round
 * (its answer escalates the call when it is the last one); an approval decided in the
 * console ends its rounds as on any call, each with the {@code requestState} only. The
 * client cancels the call by closing the request's stream until the call escalated, and
 * with {@code tasks/cancel} from then on (the call's cancellation withdraws a pending
 * approval either way). Why the tool declares it, rather than every task tool working so:
 * the first round of a tool that asks at once is the same on the wire either way, and
 * both answers are right (a task at once, whose question parks it, or
 * {@code input_required} first); the tool's author knows which the question is.
 */
final class StatelessMcpTaskEscalation {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final StatelessMcpTasks tasks;

	private final StatelessMcpInputs inputs;

	private final Set<StatelessMcpStream> streams;

	/**
	 * Creates the composition.
	 * @param jsonMapper writes the answers
	 * @param tasks the tasks extension, which creates and settles the tasks
	 * @param inputs the input rounds, which write {@code input_required}
	 * @param streams the streams of the calls running, for the keep-alive
	 */
	StatelessMcpTaskEscalation(McpJsonMapper jsonMapper, StatelessMcpTasks tasks, StatelessMcpInputs inputs,
			Set<StatelessMcpStream> streams) {
		this.jsonMapper = jsonMapper;
		this.tasks = tasks;
		this.inputs = inputs;
		this.streams = streams;
	}

	/**
	 * Whether a tool gathers its input before its task.
	 * @param tool the tool
	 * @return {@code true} for an {@code @AgentTool(inputBeforeTask = true)}
	 */
	static boolean gathersInputFirst(SyncToolSpecification tool) {
		return tool.callHandler() instanceof McpToolHandler handler && handler.inputBeforeTask();
	}

	/**
	 * Serves one round of a call that runs as a task and gathers its input first.
	 * @param tool the tool called
	 * @param rpc the request
	 * @param call the call
	 * @param round the round's answers
	 * @param client what the request's {@code _meta} says of its client
	 * @param request the HTTP request
	 * @param principal the caller, or {@code null}
	 * @return the response: {@code input_required}, the task, or an error, as the one
	 * message of an SSE stream
	 */
	ServerResponse call(SyncToolSpecification tool, McpSchema.JSONRPCRequest rpc, McpSchema.CallToolRequest call,
			McpInputRound round, StatelessMcpRequestMeta client, ServerRequest request,
			@Nullable ToolPrincipal principal) {
		Map<?, ?> params = (rpc.params() instanceof Map<?, ?> map) ? map : Map.of();
		String baseUrl = McpRequestBaseUrls.of(request.servletRequest());
		return StatelessMcpStream.sse((sse, response) -> {
			CallCancellation cancellation = new CallCancellation();
			// The stream's end cancels the call only until it escalated
			CallCancellation streamGone = new CallCancellation();
			StatelessMcpStream stream = new StatelessMcpStream(sse, streamGone);
			Rounds rounds = new Rounds(tool, rpc, params, round, principal, stream, client.logLevel(), cancellation);
			streamGone.onCancel(rounds::streamGone);
			this.streams.add(stream);
			try {
				McpSyncServerExchange exchange = exchange(rounds, round, client, principal, baseUrl, cancellation);
				this.tasks.execute(() -> rounds.run(exchange, call));
				Answer answer = rounds.answer();
				if (!answer.refusable() || !stream.refuse(response, HttpStatus.BAD_REQUEST.value(), answer.json())) {
					stream.send(answer.json());
				}
			}
			catch (RuntimeException ex) {
				logger.warn("MCP {} tools/call of a task failed in the transport: {}",
						StatelessMcpServer.PROTOCOL_VERSION, ex.getClass().getSimpleName());
				cancellation.cancel("the call could not be answered");
				stream.send(error(rpc.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
						McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error: the call could not be answered")));
			}
			finally {
				this.streams.remove(stream);
				stream.close();
				if (stream.isAbandoned()) {
					McpSessionDispatcher.completeAbandoned(request.servletRequest());
				}
			}
		});
	}

	// The SDK's view of the call, as on any call of the revision, with the rounds as its
	// session
	private McpSyncServerExchange exchange(Rounds rounds, McpInputRound round, StatelessMcpRequestMeta client,
			@Nullable ToolPrincipal principal, String baseUrl, CallCancellation cancellation) {
		McpRequestContext context = McpRequestContext.ofStateless(principal, baseUrl, cancellation, round);
		return new McpSyncServerExchange(new McpAsyncServerExchange(null, rounds, client.capabilities(),
				client.clientInfo(), context.transportContext()));
	}

	private String error(Object id, McpSchema.JSONRPCResponse.JSONRPCError error) {
		return json(McpSchema.JSONRPCResponse.error(id, error));
	}

	private String json(McpSchema.JSONRPCResponse response) {
		return StatelessMcpServer.json(this.jsonMapper, response);
	}

	// The request's one message, and whether it may be a plain JSON refusal (400)
	private record Answer(String json, boolean refusable) {
	}

	// Where a call is: in its rounds, asking (it answers input_required or -32602),
	// escalated to its task, or ended before it escalated
	private enum State {

		ROUNDS, ASKING, ESCALATED, ENDED

	}

	/**
	 * One round of a call, and the session its handler talks to: the round's
	 * ({@link StatelessMcpSession}) until the call escalates, the task's
	 * ({@link McpTaskSession}) from then on.
	 */
	private final class Rounds implements McpLoggableSession {

		private final SyncToolSpecification tool;

		private final McpSchema.JSONRPCRequest rpc;

		private final Map<?, ?> params;

		private final McpInputRound round;

		private final @Nullable ToolPrincipal principal;

		private final CallCancellation cancellation;

		private final StatelessMcpSession roundSession;

		private final CompletableFuture<Answer> answer = new CompletableFuture<>();

		private final Object lock = new Object();

		private State state = State.ROUNDS;

		private @Nullable String taskId;

		private @Nullable McpTaskSession taskSession;

		Rounds(SyncToolSpecification tool, McpSchema.JSONRPCRequest rpc, Map<?, ?> params, McpInputRound round,
				@Nullable ToolPrincipal principal, StatelessMcpStream stream, McpSchema.@Nullable LoggingLevel logLevel,
				CallCancellation cancellation) {
			this.tool = tool;
			this.rpc = rpc;
			this.params = params;
			this.round = round;
			this.principal = principal;
			this.cancellation = cancellation;
			this.roundSession = new StatelessMcpSession(StatelessMcpTaskEscalation.this.jsonMapper, stream, logLevel,
					round);
		}

		// On a thread of the tasks: the handler, from the start
		void run(McpSyncServerExchange exchange, McpSchema.CallToolRequest call) {
			McpSchema.CallToolResult result = null;
			Throwable failure = null;
			try {
				result = this.tool.callHandler().apply(exchange, call);
			}
			catch (Throwable ex) {
				failure = ex;
			}
			String taskId;
			synchronized (this.lock) {
				taskId = this.taskId;
				if (taskId == null) {
					this.state = State.ENDED;
				}
			}
			if (taskId != null) {
				StatelessMcpTaskEscalation.this.tasks.settle(taskId, this.tool.tool().name(), result, failure);
				return;
			}
			try {
				answer(ended(result, failure));
			}
			catch (RuntimeException ex) {
				logger.warn("MCP {} tools/call of tool '{}' could not be answered: {}",
						StatelessMcpServer.PROTOCOL_VERSION, this.tool.tool().name(), ex.getClass().getSimpleName());
				answer(internalError());
			}
		}

		// The answer of a round whose handler ended before the call escalated
		private Answer ended(McpSchema.@Nullable CallToolResult result, @Nullable Throwable failure) {
			if (this.cancellation.isCancelled()) {
				// The client closed the stream: nothing is written, no task is created
				return internalError();
			}
			try {
				if (failure == null && result != null) {
					StatelessMcpInputs.checkAnswers(this.round);
					return message(StatelessMcpTaskEscalation.this.tasks.completed(this.principal, result));
				}
				if (failure instanceof RuntimeException ex) {
					Map<String, Object> inputRequired = StatelessMcpTaskEscalation.this.inputs.ended(this.round,
							this.rpc.method(), this.params, (this.principal != null) ? this.principal.name() : null,
							ex);
					if (inputRequired != null) {
						return message(inputRequired);
					}
				}
				if (failure instanceof McpError ex) {
					return refusal(ex);
				}
				logger.warn("MCP {} tools/call of tool '{}' failed in its handler: {}",
						StatelessMcpServer.PROTOCOL_VERSION, this.tool.tool().name(),
						(failure != null) ? failure.getClass().getSimpleName() : "no result");
				return internalError();
			}
			catch (McpError ex) {
				return refusal(ex);
			}
		}

		private Answer internalError() {
			return new Answer(error(this.rpc.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
					McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error: the call failed")), false);
		}

		private Answer message(Map<String, Object> result) {
			return new Answer(json(McpSchema.JSONRPCResponse.result(this.rpc.id(), result)), false);
		}

		// A missing capability is 400, when nothing was written yet
		private Answer refusal(McpError ex) {
			return new Answer(error(this.rpc.id(), ex.getJsonRpcError()),
					ex.getJsonRpcError().code() == StatelessMcpSession.MISSING_REQUIRED_CLIENT_CAPABILITY);
		}

		private void answer(Answer answer) {
			this.answer.complete(answer);
		}

		// The request's one message, once the call asked, escalated or ended
		Answer answer() {
			try {
				return this.answer.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.cancellation.cancel("the request's thread was interrupted");
				throw new IllegalStateException("Interrupted while the call ran", ex);
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException("The call could not be answered", ex.getCause());
			}
		}

		// The client closed the stream: the call is cancelled, unless it is a task
		// already
		void streamGone() {
			synchronized (this.lock) {
				if (this.state == State.ESCALATED) {
					return;
				}
			}
			this.cancellation.cancel("the client closed the response stream");
		}

		@Override
		public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
			McpTaskSession task;
			synchronized (this.lock) {
				task = this.taskSession;
				if (task == null) {
					Mono<T> asked = this.roundSession.sendRequest(method, requestParams, typeRef);
					if (this.round.asked() || this.round.invalid() != null) {
						// The round answers input_required (or -32602) once the handler
						// unwound: it never escalates
						if (this.state == State.ROUNDS) {
							this.state = State.ASKING;
						}
					}
					else if (this.state == State.ROUNDS && this.round.tookEveryAnswer()) {
						escalate();
					}
					return asked;
				}
			}
			return task.sendRequest(method, requestParams, typeRef);
		}

		// The handler took the last answer: the task is created, the request answers it,
		// and the handler's next request to its client parks the task
		private void escalate() {
			String id = UUID.randomUUID().toString();
			Map<String, Object> created;
			try {
				created = StatelessMcpTaskEscalation.this.tasks.escalate(id, this.principal, this.cancellation);
			}
			catch (RuntimeException ex) {
				// No task (the store failed): the request fails, and so does the call
				this.state = State.ENDED;
				answer(internalError());
				this.cancellation.cancel("its task could not be created");
				throw ex;
			}
			this.taskId = id;
			this.taskSession = StatelessMcpTaskEscalation.this.tasks.session(id, this.cancellation);
			this.state = State.ESCALATED;
			answer(message(created));
		}

		@Override
		public Mono<Void> sendNotification(String method, Object params) {
			synchronized (this.lock) {
				if (this.state == State.ESCALATED) {
					// A task has no stream
					return Mono.empty();
				}
			}
			return this.roundSession.sendNotification(method, params);
		}

		@Override
		public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
			this.roundSession.setMinLoggingLevel(minLoggingLevel);
		}

		@Override
		public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
			return this.roundSession.isNotificationForLevelAllowed(loggingLevel);
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

		@Override
		public void close() {
		}

	}

}
