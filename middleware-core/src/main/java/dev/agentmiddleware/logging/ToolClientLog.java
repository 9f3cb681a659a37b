package dev.agentmiddleware.logging;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Function;

import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what a tool asks its {@link ToolClient}, as part of its call, on the call log
 * ({@value LoggingMiddleware#DEFAULT_LOGGER_NAME}): one line per elicitation or sampling
 * request at INFO, one per message logged to the client at DEBUG, naming the tool, the
 * call and the kind of request, and how it ended, never what was asked or answered (a
 * message, a form's content, a model's text): <pre>
 * tool=book_table call=4f1a-2c client_request=elicitation outcome=accept duration_ms=5230.114
 * tool=summarise call=4f1a-2d client_request=sampling outcome=unavailable error="Tool 'summarise' cannot ask its client for sampling: the MCP client 'inspector' did not declare the sampling capability"
 * </pre> The layer that calls the tool's method hands the tool the client of its call
 * this way: <pre>{@code
 * ToolClient client = ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
 * }</pre>
 */
public final class ToolClientLog {

	private static final Logger logger = LoggerFactory.getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME);

	private ToolClientLog() {
	}

	/**
	 * The client a tool's method is given for a call: the call's client, or the
	 * {@linkplain ToolClient#applicationLog application log} for a call without one,
	 * whose requests are logged with the call.
	 * @param client the call's client ({@link ToolClient#ATTRIBUTE}), or {@code null}
	 * @param invocation the call
	 * @return the client to give the tool
	 */
	public static ToolClient of(@Nullable ToolClient client, ToolInvocation invocation) {
		ToolClient target = (client != null) ? client : ToolClient.applicationLog(invocation.toolName());
		return new Logged(target, invocation.toolName(), invocation.callId());
	}

	private static final class Logged implements ToolClient {

		private final ToolClient client;

		private final String toolName;

		private final String callId;

		Logged(ToolClient client, String toolName, String callId) {
			this.client = Objects.requireNonNull(client, "client");
			this.toolName = toolName;
			this.callId = callId;
		}

		@Override
		public void log(Level level, String message) {
			this.client.log(level, message);
			if (logger.isDebugEnabled()) {
				logger.debug("tool={} call={} client_request=log level={}", this.toolName, this.callId,
						level.name().toLowerCase(Locale.ROOT));
			}
		}

		@Override
		public boolean canElicit() {
			return this.client.canElicit();
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			return logged("elicitation", this.client::elicit, request,
					(answer) -> answer.action().name().toLowerCase(Locale.ROOT));
		}

		@Override
		public boolean canSample() {
			return this.client.canSample();
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			return logged("sampling", this.client::sample, request, (answer) -> "answered");
		}

		private <Q, A> A logged(String kind, Function<Q, A> send, Q request, Function<A, String> outcome) {
			long start = System.nanoTime();
			try {
				A answer = send.apply(request);
				if (logger.isInfoEnabled()) {
					logger.info("tool={} call={} client_request={} outcome={} duration_ms={}", this.toolName,
							this.callId, kind, outcome.apply(answer), millis(start));
				}
				return answer;
			}
			catch (ToolClientUnavailableException ex) {
				logger.info("tool={} call={} client_request={} outcome=unavailable error=\"{}\"", this.toolName,
						this.callId, kind, ex.getMessage());
				throw ex;
			}
			catch (CancellationException ex) {
				logger.info("tool={} call={} client_request={} outcome=cancelled duration_ms={}", this.toolName,
						this.callId, kind, millis(start));
				throw ex;
			}
			catch (RuntimeException ex) {
				logger.info("tool={} call={} client_request={} outcome=failed duration_ms={} error_type={}",
						this.toolName, this.callId, kind, millis(start), ex.getClass().getSimpleName());
				throw ex;
			}
		}

		private static String millis(long start) {
			return String.format(Locale.ROOT, "%.3f", (System.nanoTime() - start) / 1_000_000.0);
		}

		@Override
		public String toString() {
			return "ToolClientLog[" + this.client + "]";
		}

	}

}
