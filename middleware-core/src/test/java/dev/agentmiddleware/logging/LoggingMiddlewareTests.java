package dev.agentmiddleware.logging;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class LoggingMiddlewareTests {

	private static final ToolDescriptor LOGIN = ToolDescriptor.builder("login").build();

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.INFO);

	private final AtomicLong nanoTime = new AtomicLong();

	@AfterEach
	void clearMdc() {
		MDC.clear();
	}

	@Test
	void logsOneStructuredLineAtInfoWithToolSessionSourceOutcomeDurationAndArguments() throws Exception {
		ToolPipeline pipeline = pipeline(logging(), (invocation) -> {
			this.nanoTime.addAndGet(12_345_678);
			return "welcome";
		});
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("user", "alice")
			.argument("attempts", 3)
			.sessionId("conversation-7")
			.source(InvocationSource.SPRING_AI)
			.build();
		assertThat(pipeline.call(call)).isEqualTo("welcome");
		assertThat(this.capturedLog.events()).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.INFO);
			assertThat(event.getFormattedMessage())
				.isEqualTo("tool=login session=" + SessionFingerprint.of("conversation-7") + " source=spring_ai "
						+ "outcome=succeeded duration_ms=12.345 call=" + call.callId()
						+ " args={user=\"alice\", attempts=3}");
		});
	}

	@Test
	void namesTheCallersPrincipalButNotItsAuthorities() throws Exception {
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("user", "alice")
			.principal(ToolPrincipal.of("alice@example.com", java.util.Set.of("SCOPE_files.write")))
			.build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line()).contains("session=none principal=alice@example.com source=").doesNotContain("SCOPE_");
	}

	@Test
	void redactsSecretArgumentsWhateverTheirCaseOrSeparators() throws Exception {
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("user", "alice")
			.argument("Password", "hunter2")
			.argument("API_KEY", "sk-123")
			.argument("x-api-key", "xk-456")
			.argument("authToken", "tok-789")
			.build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line())
			.contains("user=\"alice\"", "Password=[REDACTED]", "API_KEY=[REDACTED]", "x-api-key=[REDACTED]",
					"authToken=[REDACTED]")
			.doesNotContain("hunter2", "sk-123", "xk-456", "tok-789");
	}

	@Test
	void redactsSecretsInsideNestedMapsAndLists() throws Exception {
		Map<String, Object> credentials = new LinkedHashMap<>();
		credentials.put("user", "alice");
		credentials.put("client_secret", "s3cr3t");
		credentials.put("headers", List.of(Map.of("Authorization", "Bearer abc.def"), Map.of("Accept", "json")));
		ToolInvocation call = ToolInvocation.builder(LOGIN).argument("request", credentials).build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line())
			.contains("args={request={user=\"alice\", client_secret=[REDACTED], headers=[{Authorization=[REDACTED]}, "
					+ "{Accept=\"json\"}]}}")
			.doesNotContain("s3cr3t", "abc.def");
	}

	@Test
	void redactsSecretsInTheTextOfOtherObjectsAndStrings() throws Exception {
		record Credentials(String user, String password) {
		}
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("login", new Credentials("alice", "hunter2"))
			.argument("note", "use token=abc123 please")
			.build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line()).contains("user=alice", "password=[REDACTED]", "token=[REDACTED]")
			.doesNotContain("hunter2", "abc123");
	}

	@Test
	void usesTheConfiguredSecretKeys() throws Exception {
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.redactor(SecretRedactor.of(List.of("ssn")))
			.nanoTime(this.nanoTime::get)
			.build();
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("SSN", "123-45")
			.argument("password", "pw")
			.build();
		pipeline(logging, (invocation) -> "ok").call(call);
		assertThat(line()).contains("SSN=[REDACTED]", "password=\"pw\"");
	}

	@Test
	void aToolsMaskingHidesMoreThanSecretsInNestedArgumentsAfterRedaction() throws Exception {
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.nanoTime(this.nanoTime::get)
			.masking((tool) -> tool.equals(LOGIN) ? (text) -> text.replace("alice", "[NAME]") : null)
			.build();
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("user", "alice")
			.argument("profile", Map.of("friends", List.of("alice smith")))
			.argument("password", "alice")
			.build();
		pipeline(logging, (invocation) -> "ok").call(call);
		assertThat(line()).contains("user=\"[NAME]\"", "profile={friends=[\"[NAME] smith\"]}", "password=[REDACTED]")
			.doesNotContain("alice");
	}

	@Test
	void aToolWithoutMaskingIsLoggedAsBefore() throws Exception {
		ToolDescriptor other = ToolDescriptor.builder("other").build();
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.nanoTime(this.nanoTime::get)
			.masking((tool) -> tool.equals(LOGIN) ? (text) -> "[MASKED]" : null)
			.build();
		ToolPipeline.builder(other, (invocation) -> "ok")
			.middleware(logging)
			.build()
			.call(ToolInvocation.builder(other).argument("user", "alice").build());
		assertThat(line()).contains("user=\"alice\"");
	}

	@Test
	void truncatesLongValuesToTheConfiguredLength() throws Exception {
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.policies((tool) -> new LoggingPolicy(10, true))
			.nanoTime(this.nanoTime::get)
			.build();
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("text", "abcdefghijklmnopqrstuvwxyz")
			.argument("short", "abc")
			.argument("numbers", java.util.stream.IntStream.range(0, 50).boxed().toList())
			.build();
		pipeline(logging, (invocation) -> "ok").call(call);
		assertThat(line()).contains("text=\"abcdefghi…\"", "short=\"abc\"", "18, 19, …(+30)]")
			.doesNotContain("jklmnop");
	}

	@Test
	void aSecretCutByTheLengthLimitIsStillRecognised() throws Exception {
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.policies((tool) -> new LoggingPolicy(20, true))
			.nanoTime(this.nanoTime::get)
			.build();
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("url", "https://admin:hunter2-is-the-password@db.example.org/")
			.build();
		pipeline(logging, (invocation) -> "ok").call(call);
		assertThat(line()).contains("url=\"https://[REDACTED]@…\"").doesNotContain("admin", "hunter2");
	}

	@Test
	void secretsInUrlsAndAuthorizationValuesAreHiddenAndFileNamesKept() throws Exception {
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("endpoint", "https://api.example.org/v1?api_key=sk-live-1&city=Lisbon")
			.argument("header", "Authorization: Digest username=\"ada\", response=\"6629fae4\"")
			.argument("path", "my-secret-notes.txt")
			.build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line())
			.contains("api_key=[REDACTED]&city=Lisbon", "Authorization: Digest [REDACTED]",
					"path=\"my-secret-notes.txt\"")
			.doesNotContain("sk-live-1", "6629fae4");
	}

	@Test
	void resultsAreAbsentAtInfoAndLoggedTruncatedAtDebug() throws Exception {
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.policies((tool) -> new LoggingPolicy(12, true))
			.nanoTime(this.nanoTime::get)
			.build();
		ToolPipeline pipeline = pipeline(logging, (invocation) -> "the secret result is 42 and more");
		ToolInvocation call = call();
		pipeline.call(call);
		assertThat(this.capturedLog.events()).hasSize(1);
		assertThat(line()).doesNotContain("result");
		this.capturedLog.events().clear();
		this.capturedLog.logger().setLevel(Level.DEBUG);
		pipeline.call(call);
		assertThat(this.capturedLog.events()).hasSize(2);
		ILoggingEvent result = this.capturedLog.events().get(1);
		assertThat(result.getLevel()).isEqualTo(Level.DEBUG);
		assertThat(result.getFormattedMessage())
			.isEqualTo("tool=login call=" + call.callId() + " result=\"the secret …\"");
	}

	@Test
	void resultsStayOutWhenThePolicySaysSoEvenAtDebug() throws Exception {
		this.capturedLog.logger().setLevel(Level.DEBUG);
		LoggingMiddleware logging = LoggingMiddleware.builder()
			.policies((tool) -> new LoggingPolicy(200, false))
			.build();
		pipeline(logging, (invocation) -> "result").call(call());
		assertThat(this.capturedLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).doesNotContain("result="));
	}

	@Test
	void setsTheMdcDuringTheCallAndRestoresItAfter() throws Exception {
		AtomicReference<Map<String, String>> seenByTool = new AtomicReference<>();
		ToolPipeline pipeline = pipeline(logging(), (invocation) -> {
			seenByTool.set(MDC.getCopyOfContextMap());
			return "ok";
		});
		MDC.put(LoggingMiddleware.MDC_TOOL, "outer_tool");
		pipeline.call(ToolInvocation.builder(LOGIN).sessionId("s1").build());
		assertThat(seenByTool.get()).containsEntry("agent.tool", "login")
			.containsEntry("agent.session", SessionFingerprint.of("s1"));
		assertThat(this.capturedLog.events().get(0).getMDCPropertyMap()).containsEntry("agent.tool", "login")
			.containsEntry("agent.session", SessionFingerprint.of("s1"));
		assertThat(MDC.get("agent.tool")).isEqualTo("outer_tool");
		assertThat(MDC.get("agent.session")).isNull();
	}

	@Test
	void clearsTheMdcAfterAFailedCall() {
		ToolPipeline pipeline = pipeline(logging(), (invocation) -> {
			throw new IllegalStateException("boom");
		});
		assertThatIllegalStateException()
			.isThrownBy(() -> pipeline.call(ToolInvocation.builder(LOGIN).sessionId("s1").build()));
		assertThat(MDC.get("agent.tool")).isNull();
		assertThat(MDC.get("agent.session")).isNull();
	}

	@Test
	void aFailureLogsItsTypeAndTheRedactedFirstLineOfItsMessageWithoutAStackTrace() {
		IllegalStateException failure = new IllegalStateException(
				"service rejected token=abc123\n\tat some.Internal.frame(Internal.java:1)");
		ToolPipeline pipeline = pipeline(logging(), (invocation) -> {
			throw failure;
		});
		assertThatIllegalStateException().isThrownBy(() -> pipeline.call(call())).isSameAs(failure);
		assertThat(this.capturedLog.events()).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.INFO);
			assertThat(event.getThrowableProxy()).isNull();
			assertThat(event.getFormattedMessage())
				.contains("outcome=failed",
						"error_type=IllegalStateException error=\"service rejected token=[REDACTED]\"")
				.doesNotContain("abc123", "Internal.java", "\n");
		});
	}

	@Test
	void aDecisionOfAnInnerLayerIsTheOutcomeWithTheDecidingMiddleware() throws Exception {
		ToolMiddleware cache = ToolMiddleware.named("cache", (tool, next) -> (invocation) -> {
			ToolCall.current().decide(CallOutcome.CACHED, "cache");
			return "cached";
		});
		ToolMiddleware policy = ToolMiddleware.named("policy", (tool, next) -> (invocation) -> {
			throw new ToolDeniedException("login", "policy", "not allowed");
		});
		ToolPipeline cached = ToolPipeline.builder(LOGIN, (invocation) -> "ok")
			.middleware(List.of(logging(), cache))
			.build();
		ToolPipeline denied = ToolPipeline.builder(LOGIN, (invocation) -> "ok")
			.middleware(List.of(logging(), policy))
			.build();
		cached.call(call());
		assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> denied.call(call()));
		assertThat(this.capturedLog.events().get(0).getFormattedMessage()).contains("outcome=cached decided_by=cache");
		assertThat(this.capturedLog.events().get(1).getFormattedMessage()).contains("outcome=denied decided_by=policy",
				"error_type=ToolDeniedException");
	}

	@Test
	void aCancelledCallIsLoggedAsCancelledWithTheLayerThatWasWaiting() {
		CallCancellation cancellation = new CallCancellation();
		ToolMiddleware waiting = ToolMiddleware.named("waiting", (tool, next) -> (invocation) -> {
			cancellation.cancel("the user pressed stop");
			throw new ToolCancelledException("login", "waiting", cancellation.reason(), null);
		});
		ToolPipeline pipeline = ToolPipeline.builder(LOGIN, (invocation) -> "ok")
			.middleware(List.of(logging(), waiting))
			.build();
		assertThatExceptionOfType(ToolCancelledException.class).isThrownBy(() -> pipeline.call(call(), cancellation));
		assertThat(line()).contains("outcome=cancelled decided_by=waiting", "error_type=ToolCancelledException",
				"error=\"Call of tool 'login' was cancelled by its caller: the user pressed stop\"");
	}

	@Test
	void logsNothingAndSetsNoMdcWhenInfoIsOffForTheLogger() throws Exception {
		this.capturedLog.logger().setLevel(Level.WARN);
		List<String> seen = new ArrayList<>();
		ToolPipeline pipeline = pipeline(logging(), (invocation) -> {
			seen.add(String.valueOf(MDC.get("agent.tool")));
			return "ok";
		});
		pipeline.call(call());
		assertThat(this.capturedLog.events()).isEmpty();
		assertThat(seen).containsExactly("null");
		this.capturedLog.logger().setLevel(Level.INFO);
		pipeline.call(call());
		assertThat(this.capturedLog.events()).as("the level is checked per call").hasSize(1);
	}

	@Test
	void logsToTheConfiguredLogger() throws Exception {
		Logger custom = (Logger) LoggerFactory.getLogger("audit.tools");
		ListAppender<ILoggingEvent> customAppender = new ListAppender<>();
		customAppender.start();
		custom.addAppender(customAppender);
		custom.setLevel(Level.INFO);
		try {
			pipeline(LoggingMiddleware.builder().logger("audit.tools").build(), (invocation) -> "ok").call(call());
			assertThat(customAppender.list).singleElement()
				.satisfies((event) -> assertThat(event.getLoggerName()).isEqualTo("audit.tools"));
			assertThat(this.capturedLog.events()).isEmpty();
		}
		finally {
			custom.detachAppender(customAppender);
			custom.setLevel(null);
		}
	}

	@Test
	void toolsWithoutAPolicyAreNotLogged() {
		ToolHandler next = (invocation) -> "ok";
		LoggingMiddleware logging = LoggingMiddleware.builder().policies((tool) -> null).build();
		assertThat(logging.wrap(LOGIN, next)).isSameAs(next);
		assertThat(ToolPipeline.builder(LOGIN, next).middleware(logging).build().layers()).containsExactly("login");
	}

	@Test
	void quotesAndEscapesValuesSoTheLineStaysOneLine() throws Exception {
		ToolInvocation call = ToolInvocation.builder(LOGIN)
			.argument("text", "two\nlines \"quoted\"")
			.sessionId("evil\nsession=x")
			.build();
		pipeline(logging(), (invocation) -> "ok").call(call);
		assertThat(line()).doesNotContain("\n", "evil")
			.contains("session=" + SessionFingerprint.of("evil\nsession=x") + " ",
					"text=\"two\\nlines \\\"quoted\\\"\"");
	}

	@Test
	void rejectsAPolicyWithATinyMaxValueLength() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new LoggingPolicy(2, true))
			.withMessageContaining("maxValueLength");
	}

	/**
	 * Captures the MDC when the line is logged (Logback reads it lazily otherwise).
	 */
	private LoggingMiddleware logging() {
		return LoggingMiddleware.builder().nanoTime(this.nanoTime::get).build();
	}

	private String line() {
		assertThat(this.capturedLog.events()).hasSize(1);
		return this.capturedLog.events().get(0).getFormattedMessage();
	}

	private static ToolPipeline pipeline(ToolMiddleware middleware, ToolHandler terminal) {
		return ToolPipeline.builder(LOGIN, terminal).middleware(middleware).build();
	}

	private static ToolInvocation call() {
		return ToolInvocation.builder(LOGIN).argument("user", "alice").build();
	}

}
