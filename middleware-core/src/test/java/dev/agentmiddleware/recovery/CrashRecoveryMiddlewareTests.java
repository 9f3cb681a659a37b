package dev.agentmiddleware.recovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.recovery.CrashRecoveryMiddleware.CrashRecoveryException;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy.SessionToolMatcher;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrashRecoveryMiddlewareTests {

	private static final ToolDescriptor BROWSER = ToolDescriptor.builder("open_page").tags("Browser").build();

	private static final ToolDescriptor PLAIN = ToolDescriptor.builder("read_file").build();

	private final List<String> events = Collections.synchronizedList(new ArrayList<>());

	private final AtomicInteger attempts = new AtomicInteger();

	private final MiddlewareMetrics metrics = (event, tool) -> this.events.add(event + ":" + tool);

	private final ToolSessionReset reset = (invocation, crash) -> this.events
		.add("reset:" + invocation.sessionId() + ":" + crash.getMessage());

	@Test
	void aCrashResetsTheSessionAndRetriesOnce() throws Exception {
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, crashing(1));
		assertThat(pipeline.call(call(BROWSER))).isEqualTo("opened");
		assertThat(this.attempts).hasValue(2);
		assertThat(this.events).containsExactly("reset:s1:browser died 1", "CRASH_RECOVERED:open_page");
	}

	@Test
	void aSecondCrashFailsAfterExactlyOneResetAndTwoAttempts() {
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, crashing(Integer.MAX_VALUE));
		assertThatExceptionOfType(CrashRecoveryException.class).isThrownBy(() -> pipeline.call(call(BROWSER)))
			.withMessage("Tool 'open_page' crashed again after its session was reset; giving up")
			.satisfies((ex) -> {
				assertThat(ex.reason()).isEqualTo(CrashRecoveryException.Reason.CRASHED_AGAIN);
				assertThat(ex.toolName()).isEqualTo("open_page");
				assertThat(ex.decidedBy()).isEqualTo("crash-recovery");
				assertThat(ex.getCause()).hasMessage("browser died 2");
				assertThat(ex.getSuppressed()).singleElement()
					.satisfies((first) -> assertThat(first).hasMessage("browser died 1"));
			});
		assertThat(this.attempts).hasValue(2);
		assertThat(this.events).containsExactly("reset:s1:browser died 1", "CRASH_RECOVERED:open_page");
	}

	@Test
	void aFailureThatIsNotACrashPropagatesUnchangedWithoutAReset() {
		IOException failure = new IOException("element not found");
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, (invocation) -> {
			this.attempts.incrementAndGet();
			throw failure;
		});
		assertThatThrownBy(() -> pipeline.call(call(BROWSER))).isSameAs(failure);
		IOException checked = new IOException("disk full");
		assertThatThrownBy(() -> pipeline(recovery(this.reset), BROWSER, (invocation) -> {
			throw checked;
		}).call(call(BROWSER))).isSameAs(checked);
		assertThat(this.attempts).hasValue(1);
		assertThat(this.events).isEmpty();
	}

	@Test
	void aRetryThatFailsWithoutCrashingPropagatesThatFailureUnchanged() {
		IOException failure = new IOException("element not found");
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, (invocation) -> {
			if (this.attempts.incrementAndGet() == 1) {
				throw new ToolSessionCrashedException("browser died");
			}
			throw failure;
		});
		assertThatThrownBy(() -> pipeline.call(call(BROWSER))).isSameAs(failure);
		assertThat(this.attempts).hasValue(2);
	}

	@Test
	void toolsWithoutThePolicyAreNotWrapped() {
		CrashRecoveryMiddleware middleware = recovery(this.reset);
		ToolHandler tool = crashing(1);
		assertThat(middleware.wrap(PLAIN, tool)).isSameAs(tool);
		assertThat(pipeline(middleware, PLAIN, tool).layers()).containsExactly("read_file");
		assertThat(pipeline(middleware, BROWSER, tool).layers()).containsExactly("crash-recovery", "open_page");
		assertThatExceptionOfType(ToolSessionCrashedException.class)
			.isThrownBy(() -> pipeline(middleware, PLAIN, tool).call(call(PLAIN)));
		assertThat(this.events).isEmpty();
	}

	@Test
	void toolsAreChosenByTagOrByNamePattern() {
		SessionToolMatcher matcher = SessionToolMatcher.of(List.of("browser"),
				List.of("page_*", "regex:shell_(run|exec)", "tab?"));
		assertThat(matcher.matches(BROWSER)).isTrue();
		assertThat(matcher.matches(ToolDescriptor.builder("PAGE_click").build())).isTrue();
		assertThat(matcher.matches(ToolDescriptor.builder("shell_exec").build())).isTrue();
		assertThat(matcher.matches(ToolDescriptor.builder("shell_kill").build())).isFalse();
		assertThat(matcher.matches(ToolDescriptor.builder("tab1").build())).isTrue();
		assertThat(matcher.matches(ToolDescriptor.builder("tab12").build())).isFalse();
		assertThat(matcher.matches(ToolDescriptor.builder("my_page_tool").build())).as("globs match the whole name")
			.isFalse();
		assertThat(matcher.matches(PLAIN)).isFalse();
		CrashRecoveryMiddleware middleware = CrashRecoveryMiddleware.builder()
			.policies((tool) -> matcher.matches(tool) ? CrashRecoveryPolicy.DEFAULT : null)
			.build();
		assertThat(pipeline(middleware, ToolDescriptor.builder("page_click").build(), (invocation) -> null).layers())
			.containsExactly("crash-recovery", "page_click");
	}

	@Test
	void anInvalidRegularExpressionIsRefusedWithThePattern() {
		assertThatIllegalArgumentException().isThrownBy(() -> SessionToolMatcher.of(List.of(), List.of("regex:(")))
			.withMessageStartingWith("Tool name pattern 'regex:(' is not a valid regular expression");
	}

	@Test
	void withoutASessionResetACrashBecomesACleanErrorWithoutARetry() {
		ToolPipeline pipeline = pipeline(recovery(null), BROWSER, crashing(1));
		assertThatExceptionOfType(CrashRecoveryException.class).isThrownBy(() -> pipeline.call(call(BROWSER)))
			.withMessage("Tool 'open_page' crashed and no session reset is configured, so it was not retried; "
					+ "try again later")
			.satisfies((ex) -> {
				assertThat(ex.reason()).isEqualTo(CrashRecoveryException.Reason.NO_SESSION_RESET);
				assertThat(ex.getCause()).hasMessage("browser died 1");
			});
		assertThat(this.attempts).hasValue(1);
		assertThat(this.events).isEmpty();
	}

	@Test
	void aResetThatFailsEndsTheCallWithoutARetry() {
		IllegalStateException resetFailure = new IllegalStateException("cannot kill browser");
		ToolPipeline pipeline = pipeline(recovery((invocation, crash) -> {
			throw resetFailure;
		}), BROWSER, crashing(1));
		assertThatExceptionOfType(CrashRecoveryException.class).isThrownBy(() -> pipeline.call(call(BROWSER)))
			.withMessage("Tool 'open_page' crashed and resetting its session failed; giving up")
			.satisfies((ex) -> {
				assertThat(ex.reason()).isEqualTo(CrashRecoveryException.Reason.RESET_FAILED);
				assertThat(ex.getCause()).isSameAs(resetFailure);
				assertThat(ex.getSuppressed()).singleElement()
					.satisfies((crash) -> assertThat(crash).hasMessage("browser died 1"));
			});
		assertThat(this.attempts).hasValue(1);
		assertThat(this.events).isEmpty();
	}

	@Test
	void configuredExceptionTypesCountAsCrashes() throws Exception {
		CrashRecoveryPolicy policy = new CrashRecoveryPolicy(List.of(UncheckedIOException.class, IOException.class),
				false);
		ToolPipeline pipeline = pipeline(recovery(this.reset, policy), BROWSER, (invocation) -> {
			if (this.attempts.incrementAndGet() == 1) {
				throw new IOException("websocket closed");
			}
			return "opened";
		});
		assertThat(pipeline.call(call(BROWSER))).isEqualTo("opened");
		assertThat(policy.isCrash(new UncheckedIOException(new IOException("pipe")))).isTrue();
		assertThat(policy.isCrash(new ToolSessionCrashedException("always"))).isTrue();
		assertThat(policy.isCrash(new IllegalStateException("no"))).isFalse();
	}

	@Test
	void anyRuntimeExceptionCountsAsACrashByDefaultButNeverTheChainsOwnDecisions() {
		CrashRecoveryPolicy policy = CrashRecoveryPolicy.DEFAULT;
		assertThat(policy.isCrash(new IllegalStateException("panic"))).isTrue();
		assertThat(policy.isCrash(new NullPointerException())).isTrue();
		assertThat(policy.isCrash(new IOException("checked"))).isFalse();
		assertThat(policy.isCrash(new ToolDeniedException("open_page", "approval", "no"))).isFalse();
		CrashRecoveryPolicy switchedOff = new CrashRecoveryPolicy(List.of(), false);
		assertThat(switchedOff.isCrash(new IllegalStateException("panic"))).isFalse();
		assertThat(switchedOff.isCrash(new ToolSessionCrashedException("still"))).isTrue();
	}

	@Test
	void anUncheckedExceptionOfABrowserToolResetsTheSessionAndRetriesByDefault() throws Exception {
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, (invocation) -> {
			if (this.attempts.incrementAndGet() == 1) {
				throw new IllegalStateException("target closed");
			}
			return "opened";
		});
		assertThat(pipeline.call(call(BROWSER))).isEqualTo("opened");
		assertThat(this.attempts).hasValue(2);
	}

	@Test
	void aCrashOnAnInterruptedThreadIsNeitherResetNorRetried() {
		ToolSessionCrashedException crash = new ToolSessionCrashedException("browser died");
		ToolPipeline pipeline = pipeline(recovery(this.reset), BROWSER, (invocation) -> {
			this.attempts.incrementAndGet();
			Thread.currentThread().interrupt();
			throw crash;
		});
		try {
			assertThatThrownBy(() -> pipeline.call(call(BROWSER))).isSameAs(crash);
		}
		finally {
			assertThat(Thread.interrupted()).isTrue();
		}
		assertThat(this.attempts).hasValue(1);
		assertThat(this.events).isEmpty();
	}

	@Test
	void theDefaultsRecoverBrowserToolsAtTheCrashRecoveryOrder() {
		CrashRecoveryMiddleware middleware = CrashRecoveryMiddleware.builder().build();
		assertThat(middleware.order()).isEqualTo(BuiltInOrder.CRASH_RECOVERY);
		assertThat(middleware.name()).isEqualTo("crash-recovery");
		assertThat(pipeline(middleware, BROWSER, (invocation) -> null).layers()).contains("crash-recovery");
		assertThat(pipeline(middleware, PLAIN, (invocation) -> null).layers()).containsExactly("read_file");
		assertThat(CrashRecoveryMiddleware.builder().order(5).build().order()).isEqualTo(5);
	}

	@Test
	void policiesListOnlyTheToolsItRecoversAndTheResetIsReported() {
		CrashRecoveryPolicy policy = new CrashRecoveryPolicy(List.of(UncheckedIOException.class), true);
		CrashRecoveryMiddleware middleware = recovery(this.reset, policy);
		pipeline(middleware, BROWSER, (invocation) -> null);
		pipeline(middleware, PLAIN, (invocation) -> null);
		assertThat(middleware.policies()).containsExactly(Map.entry("open_page", policy));
		assertThat(middleware.hasSessionReset()).isTrue();
		assertThat(CrashRecoveryMiddleware.builder().build().hasSessionReset()).isFalse();
	}

	private ToolHandler crashing(int crashes) {
		return (invocation) -> {
			int attempt = this.attempts.incrementAndGet();
			if (attempt <= crashes) {
				throw new ToolSessionCrashedException("browser died " + attempt);
			}
			return "opened";
		};
	}

	private CrashRecoveryMiddleware recovery(ToolSessionReset reset) {
		return recovery(reset, CrashRecoveryPolicy.DEFAULT);
	}

	private CrashRecoveryMiddleware recovery(ToolSessionReset reset, CrashRecoveryPolicy policy) {
		return CrashRecoveryMiddleware.builder()
			.policies((tool) -> tool.hasTag("browser") ? policy : null)
			.sessionReset(reset)
			.metrics(this.metrics)
			.build();
	}

	private static ToolPipeline pipeline(CrashRecoveryMiddleware middleware, ToolDescriptor tool, ToolHandler handler) {
		return ToolPipeline.builder(tool, handler).middleware(middleware).build();
	}

	private static ToolInvocation call(ToolDescriptor tool) {
		return ToolInvocation.builder(tool).sessionId("s1").build();
	}

}
