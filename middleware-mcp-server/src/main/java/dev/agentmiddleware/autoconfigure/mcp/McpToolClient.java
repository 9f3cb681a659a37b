package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ToolClient} of a call that came over MCP: talks to the client through the
 * request's exchange, on the request's response stream. A message logged becomes a
 * {@code notifications/message} (logger: the tool's name), which the MCP SDK drops below
 * the level the client set with {@code logging/setLevel}; an elicitation becomes an
 * {@code elicitation/create} in form mode, a sampling request a
 * {@code sampling/createMessage}, the roots a {@code roots/list}, each only when the
 * client declared the capability.
 *
 * <p>
 * On a {@code 2026-07-28} request the exchange's session is a
 * {@link StatelessMcpSession}: a request whose answer the retry does not carry yet throws
 * a {@link dev.agentmiddleware.tool.ToolInputRequiredException} (the call answers
 * {@code input_required}); the id of an {@link ElicitationRequest} or a
 * {@link SamplingRequest} is the request's key there ({@link McpInputRound#META_KEY}).
 *
 * <p>
 * The MCP SDK's synchronous exchange blocks until the client answers, so a request is
 * sent on a thread of its own ({@code agent-tool-client}) while the tool's thread waits
 * for it: a cancelled call (the client's {@code notifications/cancelled}, a client gone
 * away) or an interrupted tool thread (the call's timeout) ends the wait at once with a
 * {@link CancellationException}, and interrupts the sending thread. The pending request
 * is withdrawn: the client gets a {@code notifications/cancelled} naming it, with the
 * exception's message as the reason, on the request's stream, or on the session's
 * listening stream when the call's stream ended (the client cancelled the call); a
 * request not sent yet is never sent ({@link McpServerRequests}). The tool's own thread
 * is never interrupted by this client.
 */
final class McpToolClient implements ToolClient {

	private static final Logger logger = LoggerFactory.getLogger(McpToolClient.class);

	private final McpSyncServerExchange exchange;

	private final String toolName;

	// The requests sent on the stream of a session's request, to withdraw them; null
	// without one
	private final @Nullable McpServerRequests sent;

	McpToolClient(McpSyncServerExchange exchange, String toolName, @Nullable McpServerRequests sent) {
		this.exchange = exchange;
		this.toolName = toolName;
		this.sent = sent;
	}

	@Override
	public void log(Level level, String message) {
		try {
			this.exchange.loggingNotification(McpSchema.LoggingMessageNotification.builder()
				.level(McpSchema.LoggingLevel.valueOf(level.name()))
				.logger(this.toolName)
				.data(message)
				.build());
		}
		catch (RuntimeException ex) {
			logger.debug("A log message of tool '{}' could not be sent to its MCP client: {}", this.toolName,
					ex.toString());
		}
	}

	@Override
	public boolean canElicit() {
		McpSchema.ClientCapabilities capabilities = this.exchange.getClientCapabilities();
		McpSchema.ClientCapabilities.Elicitation elicitation = (capabilities != null) ? capabilities.elicitation()
				: null;
		// A client that declares elicitation without modes supports forms; one that lists
		// modes must list form
		return elicitation != null && (elicitation.form() != null || elicitation.url() == null);
	}

	@Override
	public ElicitationResult elicit(ElicitationRequest request) {
		if (!canElicit()) {
			throw new ToolClientUnavailableException(this.toolName, "elicitation",
					"the MCP client " + clientName() + " did not declare the elicitation capability (form mode)");
		}
		McpSchema.ElicitFormRequest question = McpSchema.ElicitFormRequest
			.builder(request.message(), request.requestedSchema())
			.meta(keyed(request.id()))
			.build();
		McpSchema.ElicitResult answer = await("elicitation", question, () -> this.exchange.createElicitation(question));
		Map<String, Object> content = (answer.content() != null) ? answer.content() : Map.of();
		return new ElicitationResult(ElicitationResult.Action.valueOf(answer.action().name()), content);
	}

	@Override
	public boolean canSample() {
		McpSchema.ClientCapabilities capabilities = this.exchange.getClientCapabilities();
		return capabilities != null && capabilities.sampling() != null;
	}

	@Override
	public SamplingResult sample(SamplingRequest request) {
		if (!canSample()) {
			throw new ToolClientUnavailableException(this.toolName, "sampling",
					"the MCP client " + clientName() + " did not declare the sampling capability");
		}
		List<McpSchema.SamplingMessage> messages = request.messages()
			.stream()
			.map((message) -> new McpSchema.SamplingMessage(McpSchema.Role.valueOf(message.role().name()),
					new McpSchema.TextContent(message.text())))
			.toList();
		McpSchema.CreateMessageRequest.Builder question = McpSchema.CreateMessageRequest.builder()
			.messages(messages)
			.maxTokens(request.maxTokens())
			.systemPrompt(request.systemPrompt())
			.temperature(request.temperature())
			.meta(keyed(request.id()));
		McpSchema.CreateMessageRequest sampling = question.build();
		McpSchema.CreateMessageResult answer = await("sampling", sampling, () -> this.exchange.createMessage(sampling));
		return new SamplingResult(text(answer.content()), answer.model(), stopReason(answer.stopReason()));
	}

	@Override
	public boolean canListRoots() {
		McpSchema.ClientCapabilities capabilities = this.exchange.getClientCapabilities();
		return capabilities != null && capabilities.roots() != null;
	}

	@Override
	public List<Root> roots() {
		if (!canListRoots()) {
			throw new ToolClientUnavailableException(this.toolName, "roots",
					"the MCP client " + clientName() + " did not declare the roots capability");
		}
		McpSchema.ListRootsResult answer = await("roots", McpSchema.METHOD_ROOTS_LIST, this.exchange::listRoots);
		List<McpSchema.Root> roots = (answer.roots() != null) ? answer.roots() : List.of();
		return roots.stream().map((root) -> new Root(root.uri(), root.name())).toList();
	}

	// The _meta naming the request's key on a 2026-07-28 request, or none
	private static @Nullable Map<String, Object> keyed(@Nullable String id) {
		return (id != null) ? Map.of(McpInputRound.META_KEY, id) : null;
	}

	// The stop reason as MCP spells it
	private static @Nullable String stopReason(McpSchema.CreateMessageResult.@Nullable StopReason stopReason) {
		if (stopReason == null) {
			return null;
		}
		return switch (stopReason) {
			case END_TURN -> "endTurn";
			case STOP_SEQUENCE -> "stopSequence";
			case MAX_TOKENS -> "maxTokens";
			default -> null;
		};
	}

	// The text of a sampled message; other content is described, never handed over as
	// data
	private static String text(McpSchema.@Nullable Content content) {
		if (content instanceof McpSchema.TextContent text) {
			return text.text();
		}
		return (content != null) ? "[" + content.type() + " content]" : "";
	}

	// Sends a request on a thread of its own and waits for the answer, as long as the
	// call is not cancelled; a request given up is withdrawn
	private <T> T await(String kind, Object params, Supplier<T> request) {
		CallCancellation cancellation = ToolCall.current().cancellation();
		if (cancellation.isCancelled()) {
			throw cancelled(kind, cancellation.reason());
		}
		McpServerRequests sent = this.sent;
		Future<T> answer = Senders.EXECUTOR.submit(request::get);
		try (CallCancellation.Registration stop = cancellation.onCancel(() -> answer.cancel(true))) {
			T result = answer.get();
			if (sent != null) {
				sent.answered(params);
			}
			return result;
		}
		catch (CancellationException ex) {
			throw withdrawn(sent, params, cancelled(kind, cancellation.reason()));
		}
		catch (InterruptedException ex) {
			answer.cancel(true);
			Thread.currentThread().interrupt();
			throw withdrawn(sent, params, cancelled(kind, "the tool's thread was interrupted"));
		}
		catch (ExecutionException ex) {
			if (sent != null) {
				sent.answered(params);
			}
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	// The client is told that the request is withdrawn (notifications/cancelled of its
	// id), with the tool's reason. The notification is written on the tool's thread,
	// which the call's timeout may have interrupted: the interrupt is kept for the tool,
	// out of the way of the write (an interrupted write would end the call's stream
	// before its result)
	private static CancellationException withdrawn(@Nullable McpServerRequests sent, Object params,
			CancellationException cancelled) {
		if (sent != null) {
			boolean interrupted = Thread.interrupted();
			try {
				sent.withdraw(params, String.valueOf(cancelled.getMessage()));
			}
			finally {
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}
		return cancelled;
	}

	private CancellationException cancelled(String kind, @Nullable String reason) {
		return new CancellationException("The " + kind + " request of tool '" + this.toolName
				+ "' was withdrawn: the call was cancelled" + ((reason != null) ? " (" + reason + ")" : ""));
	}

	private String clientName() {
		McpSchema.Implementation info = this.exchange.getClientInfo();
		String name = (info != null) ? info.name() : null;
		return (name != null) ? "'" + name + "'" : "(unnamed)";
	}

	@Override
	public String toString() {
		return "McpToolClient[" + this.toolName + ", client=" + clientName() + "]";
	}

	// The threads that send requests and wait for the answers, started on first use; idle
	// ones end after a minute
	private static final class Senders {

		private static final AtomicInteger COUNT = new AtomicInteger();

		static final ExecutorService EXECUTOR = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "agent-tool-client-" + COUNT.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});

		private Senders() {
		}

	}

}
