package dev.agentmiddleware.logging;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client a tool's code is given for a call: the call's {@link ToolClient}, whose
 * requests are logged, kept for the call's record and observed as part of the call. Each
 * elicitation or sampling request
 * <ul>
 * <li>is logged on the call log ({@value LoggingMiddleware#DEFAULT_LOGGER_NAME}) at INFO,
 * each message logged to the client at DEBUG, naming the tool, the call, the kind of
 * request and how it ended, never what was asked or answered (a message, a form's
 * content, a model's text): <pre>
 * tool=book_table call=4f1a-2c client_request=elicitation outcome=accept duration_ms=5230.114
 * tool=summarise call=4f1a-2d client_request=sampling outcome=unavailable error="Tool 'summarise' cannot ask its client for sampling: the MCP client 'inspector' did not declare the sampling capability"
 * </pre></li>
 * <li>is kept, as a {@link ClientRequest} (kind, outcome, duration), on the running
 * {@link ToolCall}, whose record ({@code ToolCallRecord.clientRequests()}) and audit
 * record list it;</li>
 * <li>runs inside what the call's layers registered with
 * {@link ToolCall#aroundClientRequests}: the observation middleware observes it as a
 * child of the call's observation.</li>
 * </ul>
 * The layer that calls the tool's code hands the tool the client of its call this way, on
 * the thread that runs the tool (the running call is taken from it): <pre>{@code
 * ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
 * }</pre>
 */
public final class ToolClientLog {

	private static final Logger logger = LoggerFactory.getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME);

	private ToolClientLog() {
	}

	/**
	 * The client a tool's code is given for a call, on the thread that runs the tool: the
	 * call's client, or the {@linkplain ToolClient#applicationLog application log} for a
	 * call without one, whose requests are logged, recorded and observed with the call
	 * running on this thread.
	 * @param client the call's client ({@link ToolClient#ATTRIBUTE}), or {@code null}
	 * @param invocation the call
	 * @return the client to give the tool
	 */
	public static ToolClient of(@Nullable ToolClient client, ToolInvocation invocation) {
		ToolClient target = (client != null) ? client : ToolClient.applicationLog(invocation.toolName());
		return new Logged(target, invocation, ToolCall.current());
	}

	private static final class Logged implements ToolClient {

		private final ToolClient client;

		private final ToolInvocation invocation;

		private final ToolCall call;

		Logged(ToolClient client, ToolInvocation invocation, ToolCall call) {
			this.client = Objects.requireNonNull(client, "client");
			this.invocation = invocation;
			this.call = call;
		}

		@Override
		public void log(Level level, String message) {
			this.client.log(level, message);
			this.call.clientLogged(this.invocation, level);
			if (logger.isDebugEnabled()) {
				logger.debug("tool={} call={} client_request=log level={}", this.invocation.toolName(),
						this.invocation.callId(), level.name().toLowerCase(Locale.ROOT));
			}
		}

		@Override
		public boolean canElicit() {
			return this.client.canElicit();
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			return sent(ClientRequest.Kind.ELICITATION, this.client::elicit, request,
					(answer) -> ClientRequest.Outcome.of(answer.action()));
		}

		@Override
		public boolean canSample() {
			return this.client.canSample();
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			return sent(ClientRequest.Kind.SAMPLING, this.client::sample, request,
					(answer) -> ClientRequest.Outcome.ANSWERED);
		}

		@Override
		public boolean canListRoots() {
			return this.client.canListRoots();
		}

		@Override
		public List<Root> roots() {
			return sent(ClientRequest.Kind.ROOTS, (ignored) -> this.client.roots(), this.invocation,
					(answer) -> ClientRequest.Outcome.ANSWERED);
		}

		// Sends the request once, timed, inside the call's observation of it; then logs
		// how it ended and gives the
		// tool the answer, or throws what the request threw.
		private <Q, A> A sent(ClientRequest.Kind kind, Function<Q, A> send, Q request,
				Function<A, ClientRequest.Outcome> outcome) {
			Answer<A> answer = new Answer<>();
			ClientRequest ended = this.call.clientRequest(this.invocation, kind, () -> {
				long start = System.nanoTime();
				try {
					A answered = send.apply(request);
					answer.value = answered;
					return new ClientRequest(kind, outcome.apply(answered),
							Duration.ofNanos(System.nanoTime() - start));
				}
				catch (RuntimeException | Error ex) {
					answer.failure = ex;
					return new ClientRequest(kind, ClientRequest.Outcome.ofFailure(ex),
							Duration.ofNanos(System.nanoTime() - start));
				}
			});
			log(ended, answer.failure);
			Throwable failure = answer.failure;
			if (failure instanceof RuntimeException ex) {
				throw ex;
			}
			if (failure instanceof Error error) {
				throw error;
			}
			return answer.value;
		}

		private void log(ClientRequest request, @Nullable Throwable failure) {
			if (!logger.isInfoEnabled()) {
				return;
			}
			String tool = this.invocation.toolName();
			String callId = this.invocation.callId();
			String kind = request.kind().tagValue();
			switch (request.outcome()) {
				case UNAVAILABLE -> logger.info("tool={} call={} client_request={} outcome=unavailable error=\"{}\"",
						tool, callId, kind, (failure != null) ? failure.getMessage() : null);
				case FAILED ->
					logger.info("tool={} call={} client_request={} outcome=failed duration_ms={} error_type={}", tool,
							callId, kind, millis(request.duration()),
							(failure != null) ? failure.getClass().getSimpleName() : null);
				default -> logger.info("tool={} call={} client_request={} outcome={} duration_ms={}", tool, callId,
						kind, request.outcome().tagValue(), millis(request.duration()));
			}
		}

		private static String millis(Duration duration) {
			return String.format(Locale.ROOT, "%.3f", duration.toNanos() / 1_000_000.0);
		}

		@Override
		public String toString() {
			return "ToolClientLog[" + this.client + "]";
		}

	}

	// What a request answered or threw, kept by the request for the tool.
	private static final class Answer<A extends @Nullable Object> {

		// The client's answer; null only from a client that broke its contract.
		A value;

		@Nullable Throwable failure;

	}

}
