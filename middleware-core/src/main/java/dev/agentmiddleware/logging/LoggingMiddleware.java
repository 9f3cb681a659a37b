package dev.agentmiddleware.logging;

import java.util.Locale;
import java.util.Objects;

import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Logs one structured line per tool call at INFO, through SLF4J, once the call has ended:
 * <pre>
 * tool=get_weather session=sid-8c2e41f07a principal=alice source=spring_ai outcome=succeeded duration_ms=12.480 call=4f1a-2c args={city="Lisbon", apiKey=[REDACTED]}
 * tool=get_weather session=none source=mcp outcome=failed duration_ms=3.002 call=4f1a-2d error_type=IllegalStateException error="service rejected token=[REDACTED]" args={city="Atlantis"}
 * </pre> Values of secret keys (as recognised by the {@link SecretRedactor}, also inside
 * nested maps and lists) are replaced, other values are cut to the policy's
 * {@link LoggingPolicy#maxValueLength() length}, and free text (strings, messages, other
 * objects' {@code toString()}) is redacted. A failure logs its type and the first line of
 * its message, never a stack trace. With {@link LoggingPolicy#logResults()}, the result
 * follows on a second line at DEBUG. During the call the MDC holds {@value #MDC_TOOL} and
 * {@value #MDC_SESSION}, restored afterwards. A session is shown by its
 * {@link SessionFingerprint} (in the line and in the MDC), never by its id, which works
 * like a bearer secret; the caller, when known, by its
 * {@link ToolInvocation#principalName() principal's name} (never its authorities). With a
 * {@link Builder#masking masking}, every logged text is also masked for the tools it
 * applies to, such as the personal data the result guard masks.
 *
 * <p>
 * The logger's level is checked on every call: with INFO off for the logger (by default
 * {@value #DEFAULT_LOGGER_NAME}), a call costs one level check. <pre>{@code
 * LoggingMiddleware logging = LoggingMiddleware.builder()
 *     .redactor(SecretRedactor.of(List.of("password", "token", "ssn")))
 *     .policies((tool) -> tool.tags().contains("noisy") ? null : LoggingPolicy.DEFAULT)
 *     .build();
 * }</pre>
 */
public final class LoggingMiddleware extends BuiltInMiddleware<LoggingPolicy> {

	/** The name of this middleware in chains. */
	public static final String NAME = "logging";

	/** The default logger name. */
	public static final String DEFAULT_LOGGER_NAME = "dev.agentmiddleware.logging.ToolCallLog";

	/** The MDC key holding the tool's name during a call. */
	public static final String MDC_TOOL = "agent.tool";

	/**
	 * The MDC key holding the session's fingerprint during a call (absent when the call
	 * has none).
	 */
	public static final String MDC_SESSION = "agent.session";

	private static final Logger selfLogger = LoggerFactory.getLogger(LoggingMiddleware.class);

	private final Logger logger;

	private final Function<ToolDescriptor, @Nullable UnaryOperator<String>> masking;

	private final LongSupplier nanoTime;

	private LoggingMiddleware(Builder builder) {
		super(NAME, builder);
		this.logger = builder.logger;
		this.masking = builder.masking;
		this.nanoTime = builder.nanoTime;
	}

	/**
	 * Starts a logging middleware; by default it logs every tool to
	 * {@value #DEFAULT_LOGGER_NAME} with {@link LoggingPolicy#DEFAULT} and the default
	 * secret keys, with order {@link BuiltInOrder#LOGGING}; a tool whose policy is
	 * {@code null} is not logged at all.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, LoggingPolicy policy, ToolHandler next) {
		LogValueRenderer renderer = new LogValueRenderer(redactor(), this.masking.apply(tool));
		ToolCall.Listener<Long> logLine = (start, invocation, outcome, decidedBy, result, error) -> {
			logCall(renderer, invocation, outcome, decidedBy, start, error, policy);
			if (error == null && policy.logResults() && this.logger.isDebugEnabled()) {
				logResult(renderer, invocation, result, policy);
			}
		};
		return (invocation) -> this.logger.isInfoEnabled() ? log(invocation, next, logLine) : next.handle(invocation);
	}

	private @Nullable Object log(ToolInvocation invocation, ToolHandler next, ToolCall.Listener<Long> logLine)
			throws Exception {
		String previousTool = MDC.get(MDC_TOOL);
		String previousSession = MDC.get(MDC_SESSION);
		MDC.put(MDC_TOOL, invocation.toolName());
		putOrRemove(MDC_SESSION, SessionFingerprint.ofNullable(invocation.sessionId()));
		try {
			return ToolCall.observe(invocation, next, logLine, this.nanoTime.getAsLong());
		}
		finally {
			putOrRemove(MDC_TOOL, previousTool);
			putOrRemove(MDC_SESSION, previousSession);
		}
	}

	private void logCall(LogValueRenderer renderer, ToolInvocation invocation, CallOutcome outcome,
			@Nullable String decidedBy, long start, @Nullable Throwable error, LoggingPolicy policy) {
		long nanos = this.nanoTime.getAsLong() - start;
		try {
			StringBuilder line = new StringBuilder(160);
			line.append("tool=").append(invocation.toolName()).append(" session=");
			line.append(SessionFingerprint.of(invocation.sessionId()));
			String principal = invocation.principalName();
			if (principal != null) {
				// Who asked, by name only: authorities are not logged, and a name is no
				// secret
				line.append(" principal=");
				LogValueRenderer.appendToken(line, principal);
			}
			line.append(" source=").append(invocation.source().name().toLowerCase(Locale.ROOT));
			line.append(" outcome=").append(outcome.tagValue());
			if (decidedBy != null) {
				line.append(" decided_by=");
				LogValueRenderer.appendToken(line, decidedBy);
			}
			line.append(" duration_ms=");
			appendMillis(line, Math.max(0, nanos));
			line.append(" call=");
			LogValueRenderer.appendToken(line, invocation.callId());
			if (error != null) {
				line.append(" error_type=").append(errorType(error)).append(" error=");
				renderer.appendMessage(line, error.getMessage(), policy.maxValueLength());
			}
			line.append(" args=");
			renderer.appendArguments(line, invocation.arguments(), policy.maxValueLength());
			this.logger.info(line.toString());
		}
		catch (RuntimeException ex) {
			// A value that cannot be rendered must not fail the call.
			selfLogger.warn("Could not log a call of tool '{}': {}", invocation.toolName(), ex.toString());
		}
	}

	private void logResult(LogValueRenderer renderer, ToolInvocation invocation, @Nullable Object result,
			LoggingPolicy policy) {
		try {
			StringBuilder line = new StringBuilder(80);
			line.append("tool=").append(invocation.toolName()).append(" call=");
			LogValueRenderer.appendToken(line, invocation.callId());
			line.append(" result=");
			renderer.appendValue(line, result, policy.maxValueLength(), 0);
			this.logger.debug(line.toString());
		}
		catch (RuntimeException ex) {
			selfLogger.warn("Could not log the result of tool '{}': {}", invocation.toolName(), ex.toString());
		}
	}

	private static String errorType(Throwable error) {
		String simpleName = error.getClass().getSimpleName();
		return simpleName.isEmpty() ? error.getClass().getName() : simpleName;
	}

	private static void appendMillis(StringBuilder line, long nanos) {
		long micros = nanos / 1_000;
		line.append(micros / 1_000).append('.');
		long fraction = micros % 1_000;
		if (fraction < 100) {
			line.append('0');
		}
		if (fraction < 10) {
			line.append('0');
		}
		line.append(fraction);
	}

	private static void putOrRemove(String key, @Nullable String value) {
		if (value != null) {
			MDC.put(key, value);
		}
		else {
			MDC.remove(key);
		}
	}

	@Override
	public String toString() {
		return "LoggingMiddleware[logger=" + this.logger.getName() + ", order=" + order() + "]";
	}

	/**
	 * Builds a {@link LoggingMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<LoggingPolicy, Builder> {

		private Logger logger = LoggerFactory.getLogger(DEFAULT_LOGGER_NAME);

		private Function<ToolDescriptor, @Nullable UnaryOperator<String>> masking = (tool) -> null;

		private LongSupplier nanoTime = System::nanoTime;

		private Builder() {
			super((tool) -> LoggingPolicy.DEFAULT, BuiltInOrder.LOGGING);
		}

		/**
		 * Sets the name of the logger the lines go to (default
		 * {@value LoggingMiddleware#DEFAULT_LOGGER_NAME}).
		 * @param loggerName the logger name
		 * @return this builder
		 */
		public Builder logger(String loggerName) {
			this.logger = LoggerFactory.getLogger(Objects.requireNonNull(loggerName, "loggerName"));
			return this;
		}

		/**
		 * Sets what else is masked in a tool's logged text (arguments, results, error
		 * messages) after its secrets are redacted, decided once per tool (default:
		 * nothing), such as the personal data the result guard masks in that tool's
		 * results. <pre>{@code
		 * LoggingMiddleware.builder().masking(resultGuardMiddleware::personalDataMasking).build();
		 * }</pre>
		 * @param masking gives a tool's masking of text, or {@code null} for a tool whose
		 * logs mask nothing more
		 * @return this builder
		 */
		public Builder masking(Function<ToolDescriptor, @Nullable UnaryOperator<String>> masking) {
			this.masking = Objects.requireNonNull(masking, "masking");
			return this;
		}

		/**
		 * Sets the source of {@link System#nanoTime()}-like readings used to measure
		 * durations.
		 * @param nanoTime the time source
		 * @return this builder
		 */
		public Builder nanoTime(LongSupplier nanoTime) {
			this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
			return this;
		}

		@Override
		public LoggingMiddleware build() {
			return new LoggingMiddleware(this);
		}

	}

}
