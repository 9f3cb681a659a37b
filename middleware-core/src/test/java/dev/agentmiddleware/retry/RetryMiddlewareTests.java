package dev.agentmiddleware.retry;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.TransientToolException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryMiddlewareTests {

	private static final ToolDescriptor FETCH = ToolDescriptor.builder("fetch").idempotent(true).build();

	private static final RetryPolicy NO_JITTER = RetryPolicy.defaults().withJitter(0);

	private final List<Duration> waits = new ArrayList<>();

	private final List<MiddlewareEvent> events = new ArrayList<>();

	private final MiddlewareMetrics metrics = (event, toolName) -> {
		assertThat(toolName).isEqualTo("fetch");
		this.events.add(event);
	};

	private final AtomicInteger attempts = new AtomicInteger();

	@Test
	void aTransientFailureIsRetriedUntilTheToolSucceeds() throws Exception {
		ToolHandler handler = wrap(NO_JITTER, failing(2, () -> new TransientToolException("busy")));
		assertThat(handler.handle(call())).isEqualTo("ok after 3");
		assertThat(this.attempts).hasValue(3);
		assertThat(this.waits).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400));
		assertThat(this.events).containsExactly(MiddlewareEvent.RETRY, MiddlewareEvent.RETRY);
	}

	@Test
	void theBackoffGrowsExponentiallyUpToTheMaximumAndTheLastFailurePropagatesUnchanged() {
		RetryPolicy policy = NO_JITTER.withMaxAttempts(6)
			.withBackoff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(1));
		List<Exception> thrown = new ArrayList<>();
		ToolHandler handler = wrap(policy, (invocation) -> {
			this.attempts.incrementAndGet();
			IOException failure = new IOException("connection reset " + this.attempts.get());
			thrown.add(failure);
			throw failure;
		});
		assertThatThrownBy(() -> handler.handle(call())).isSameAs(thrown.get(5));
		assertThat(this.attempts).hasValue(6);
		assertThat(this.waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(900),
				Duration.ofSeconds(1), Duration.ofSeconds(1));
		assertThat(this.events).hasSize(5);
	}

	@Test
	void jitterVariesEachWaitWithinItsFactorAndNeverBeyondTheMaximum() {
		RetryPolicy policy = RetryPolicy.defaults().withMaxAttempts(5);
		Iterator<Double> randoms = List.of(0.0, 0.75, 0.5, 0.99).iterator();
		ToolHandler handler = RetryMiddleware.builder()
			.policies((tool) -> policy)
			.sleeper(this.waits::add)
			.random(randoms::next)
			.build()
			.wrap(FETCH, failing(10, () -> new TransientToolException("busy")));
		assertThatThrownBy(() -> handler.handle(call())).isInstanceOf(TransientToolException.class);
		// 200ms * 0.5, 400ms * 1.25, 800ms * 1.0, 1600ms * 1.49 = 2384ms
		assertThat(this.waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(800),
				Duration.ofMillis(2384));
		this.waits.clear();
		Iterator<Double> high = List.of(0.99).iterator();
		assertThatThrownBy(() -> RetryMiddleware.builder()
			.policies(
					(tool) -> policy.withMaxAttempts(2).withBackoff(Duration.ofSeconds(4), 2.0, Duration.ofSeconds(5)))
			.sleeper(this.waits::add)
			.random(high::next)
			.build()
			.wrap(FETCH, failing(10, () -> new TransientToolException("busy")))
			.handle(call())).isInstanceOf(TransientToolException.class);
		assertThat(this.waits).as("4s * 1.49 is capped at 5s").containsExactly(Duration.ofSeconds(5));
	}

	@Test
	void aSeededRandomGivesTheSameScheduleEveryTime() {
		List<Duration> first = schedule(new SplittableRandom(42)::nextDouble);
		List<Duration> second = schedule(new SplittableRandom(42)::nextDouble);
		assertThat(first).hasSize(4).isEqualTo(second);
		long base = 200;
		for (Duration wait : first) {
			assertThat(wait.toMillis()).isBetween(base / 2, Math.min(5000, base * 3 / 2));
			base *= 2;
		}
	}

	@Test
	void subclassesOfTheRetriedTypesAreRetried() throws Exception {
		ToolHandler handler = wrap(NO_JITTER, failing(1, () -> new SocketTimeoutException("read timed out")));
		assertThat(handler.handle(call())).isEqualTo("ok after 2");
	}

	@Test
	void missingFilesAndOtherFileSystemErrorsAreNotRetriedByDefault() throws Exception {
		List<Exception> permanent = List.of(new NoSuchFileException("notes.txt"),
				new FileSystemException("notes", null, "is a directory"), new FileNotFoundException("notes.txt"));
		for (Exception failure : permanent) {
			this.attempts.set(0);
			assertThatThrownBy(() -> wrap(NO_JITTER, failing(5, () -> failure)).handle(call())).isSameAs(failure);
			assertThat(this.attempts).as(failure.getClass().getSimpleName()).hasValue(1);
		}
		this.attempts.set(0);
		ToolHandler handler = wrap(NO_JITTER.withIgnore(List.of()), failing(1, () -> new NoSuchFileException("a")));
		assertThat(handler.handle(call())).as("nothing ignored").isEqualTo("ok after 2");
	}

	@Test
	void otherFailuresAreNotRetried() {
		IllegalStateException failure = new IllegalStateException("bug");
		ToolHandler handler = wrap(NO_JITTER, failing(5, () -> failure));
		assertThatThrownBy(() -> handler.handle(call())).isSameAs(failure);
		assertThat(this.attempts).hasValue(1);
		assertThat(this.waits).isEmpty();
		assertThat(this.events).isEmpty();
	}

	@Test
	void denialsRateLimitsArgumentErrorsAndContractViolationsAreNeverRetriedWhateverTheConfiguration() {
		RetryPolicy everything = NO_JITTER.withRetryOn(List.of(Throwable.class));
		List<Exception> neverRetried = List.of(new ToolDeniedException("fetch", "approval", "no"),
				new ToolRateLimitedException("fetch", "rate-limit", "1 call per 1s", Duration.ofSeconds(1)),
				new InvalidToolArgumentsException("fetch", "url", "expected a string"),
				new ToolContractViolationException("fetch", "broken", "returned a number"),
				new ToolTimeoutException("fetch", "timeout", Duration.ofSeconds(1)), new InterruptedException());
		for (Exception failure : neverRetried) {
			this.attempts.set(0);
			ToolHandler handler = wrap(everything, failing(5, () -> failure));
			assertThatThrownBy(() -> handler.handle(call())).isSameAs(failure);
			assertThat(this.attempts).as(failure.getClass().getSimpleName()).hasValue(1);
		}
		assertThat(this.waits).isEmpty();
	}

	@Test
	void anApplicationsOwnRefusalIsNeverRetriedByItsOutcome() {
		ToolMiddlewareException quotaSpent = new QuotaSpentException("fetch");
		ToolHandler handler = wrap(NO_JITTER.withRetryOn(List.of(Throwable.class)), failing(5, () -> quotaSpent));
		assertThatThrownBy(() -> handler.handle(call())).isSameAs(quotaSpent);
		assertThat(this.attempts).hasValue(1);
		assertThat(this.waits).isEmpty();
	}

	@Test
	void perAttemptTimeoutsAreRetriedOnlyWhenNamedExplicitly() throws Exception {
		ToolHandler handler = wrap(NO_JITTER.withRetryOn(List.of(ToolTimeoutException.class)),
				failing(1, () -> new ToolTimeoutException("fetch", "timeout", Duration.ofSeconds(1))));
		assertThat(handler.handle(call())).isEqualTo("ok after 2");
	}

	@Test
	void aToolThatIsNeitherIdempotentNorReadOnlyIsNeverWrapped() {
		ToolHandler tool = (invocation) -> "sent";
		ToolDescriptor send = ToolDescriptor.builder("send_mail").build();
		RetryMiddleware middleware = RetryMiddleware.builder().policies((descriptor) -> RetryPolicy.defaults()).build();
		assertThat(middleware.wrap(send, tool)).isSameAs(tool);
		assertThat(RetryMiddleware.isRetryable(send)).isFalse();
	}

	@Test
	void aReadOnlyToolIsRetriedAndASingleAttemptPolicyLeavesTheToolUnwrapped() throws Exception {
		ToolDescriptor read = ToolDescriptor.builder("fetch").readOnly(true).build();
		ToolHandler tool = failing(1, () -> new TransientToolException("busy"));
		RetryMiddleware middleware = RetryMiddleware.builder()
			.policies((descriptor) -> NO_JITTER)
			.sleeper(this.waits::add)
			.build();
		assertThat(middleware.wrap(read, tool).handle(call())).isEqualTo("ok after 2");
		RetryMiddleware once = RetryMiddleware.builder().policies((descriptor) -> NO_JITTER.withMaxAttempts(1)).build();
		assertThat(once.wrap(read, tool)).isSameAs(tool);
		assertThat(RetryMiddleware.builder().policies((descriptor) -> null).build().wrap(read, tool)).isSameAs(tool);
	}

	@Test
	void policiesListOnlyTheToolsItWraps() {
		ToolDescriptor send = ToolDescriptor.builder("send_mail").build();
		ToolDescriptor once = ToolDescriptor.builder("ping").idempotent(true).build();
		RetryMiddleware middleware = RetryMiddleware.builder()
			.policies((descriptor) -> descriptor.name().equals("ping") ? NO_JITTER.withMaxAttempts(1) : NO_JITTER)
			.build();
		for (ToolDescriptor tool : List.of(FETCH, send, once)) {
			middleware.wrap(tool, (invocation) -> "ok");
		}
		assertThat(middleware.policies()).containsExactly(Map.entry("fetch", NO_JITTER));
	}

	@Test
	void anInterruptWhileWaitingStopsRetryingWithTheLastFailure() {
		TransientToolException failure = new TransientToolException("busy");
		ToolHandler handler = RetryMiddleware.builder().policies((tool) -> NO_JITTER).sleeper((duration) -> {
			throw new InterruptedException();
		}).build().wrap(FETCH, failing(5, () -> failure));
		try {
			assertThatThrownBy(() -> handler.handle(call())).isSameAs(failure);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
			assertThat(this.attempts).hasValue(1);
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void everyAttemptPassesThroughTheInnerLayersAgain() throws Exception {
		AtomicInteger inner = new AtomicInteger();
		ToolMiddleware counting = ToolMiddleware.named("counting", (tool, next) -> (invocation) -> {
			inner.incrementAndGet();
			return next.handle(invocation);
		});
		RetryMiddleware retry = RetryMiddleware.builder()
			.policies((tool) -> NO_JITTER)
			.sleeper(this.waits::add)
			.build();
		ToolPipeline pipeline = ToolPipeline
			.chain(new ExecutableTool(FETCH, failing(2, () -> new TransientToolException("busy"))), retry, counting);
		assertThat(pipeline.layers()).containsExactly("retry", "counting", "fetch");
		assertThat(pipeline.call(call())).isEqualTo("ok after 3");
		assertThat(inner).hasValue(3);
	}

	@Test
	void joinsTheChainAsRetryAtItsDefaultOrder() {
		assertThat(RetryMiddleware.builder().policies((tool) -> null).build().name()).isEqualTo("retry");
		assertThat(RetryMiddleware.builder().policies((tool) -> null).build().order()).isEqualTo(BuiltInOrder.RETRY);
		assertThat(RetryMiddleware.builder().policies((tool) -> null).order(7).build().order()).isEqualTo(7);
	}

	@Test
	void policiesRejectValuesOutOfRangeNamingThem() {
		RetryPolicy defaults = RetryPolicy.defaults();
		assertThat(defaults.retryOn()).containsExactly(TransientToolException.class, IOException.class);
		assertThat(defaults.ignore()).containsExactly(FileNotFoundException.class, FileSystemException.class);
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withMaxAttempts(0))
			.withMessageContaining("maxAttempts");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> defaults.withBackoff(Duration.ZERO, 2.0, Duration.ofSeconds(1)))
			.withMessageContaining("initialBackoff");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> defaults.withBackoff(Duration.ofMillis(10), 0.5, Duration.ofSeconds(1)))
			.withMessageContaining("multiplier");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> defaults.withBackoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(1)))
			.withMessageContaining("maxBackoff");
		assertThatIllegalArgumentException().isThrownBy(() -> defaults.withJitter(1.0)).withMessageContaining("jitter");
	}

	private List<Duration> schedule(DoubleSupplier random) {
		List<Duration> waits = new ArrayList<>();
		ToolHandler handler = RetryMiddleware.builder()
			.policies((tool) -> RetryPolicy.defaults().withMaxAttempts(5))
			.sleeper(waits::add)
			.random(random)
			.build()
			.wrap(FETCH, (invocation) -> {
				throw new TransientToolException("busy");
			});
		assertThatThrownBy(() -> handler.handle(call())).isInstanceOf(TransientToolException.class);
		return waits;
	}

	private ToolHandler wrap(RetryPolicy policy, ToolHandler tool) {
		return RetryMiddleware.builder().policies((descriptor) -> policy).sleeper(this.waits::add).random(() -> {
			throw new AssertionError("no jitter expected");
		}).metrics(this.metrics).build().wrap(FETCH, tool);
	}

	private ToolHandler failing(int failures, FailureFactory failure) {
		return (invocation) -> {
			int attempt = this.attempts.incrementAndGet();
			if (attempt <= failures) {
				throw failure.create();
			}
			return "ok after " + attempt;
		};
	}

	private static ToolInvocation call() {
		return ToolInvocation.builder(FETCH).build();
	}

	@FunctionalInterface
	interface FailureFactory {

		Exception create();

	}

	// A middleware of the application's own (a quota) refuses with an exception retry
	// does
	// not know: its outcome says what it is
	static final class QuotaSpentException extends ToolMiddlewareException {

		QuotaSpentException(String toolName) {
			super(toolName, "quota", "Tool '" + toolName + "' is over its monthly quota", null, false);
		}

		@Override
		public CallOutcome outcome() {
			return CallOutcome.RATE_LIMITED;
		}

	}

}
