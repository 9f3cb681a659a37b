package dev.agentmiddleware.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RateLimitMiddlewareTests {

	private static final ToolDescriptor SEARCH = ToolDescriptor.builder("search").build();

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	private final Ticker ticker = this.nanos::get;

	private final AtomicInteger executions = new AtomicInteger();

	private final ToolHandler tool = (invocation) -> "result " + this.executions.incrementAndGet();

	private final List<MiddlewareEvent> events = new ArrayList<>();

	private final MiddlewareMetrics metrics = (event, toolName) -> {
		assertThat(toolName).isEqualTo("search");
		synchronized (this.events) {
			this.events.add(event);
		}
	};

	@Test
	void callsWithinTheLimitRunTheTool() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(2, Duration.ofMinutes(1)));
		assertThat(handler.handle(call(null))).isEqualTo("result 1");
		assertThat(handler.handle(call(null))).isEqualTo("result 2");
		assertThat(this.events).isEmpty();
	}

	@Test
	void aCallOverTheLimitIsRejectedWithTheLimitAndWhenToRetry() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(2, Duration.ofMinutes(1)));
		handler.handle(call(null));
		handler.handle(call(null));
		advance(Duration.ofSeconds(48));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call(null)))
			.satisfies((ex) -> {
				assertThat(ex.toolName()).isEqualTo("search");
				assertThat(ex.decidedBy()).isEqualTo("rate-limit");
				assertThat(ex.limit()).isEqualTo("2 calls per 1m");
				assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(12));
				assertThat(ex.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
				assertThat(ex.getMessage())
					.isEqualTo("Tool 'search' is rate limited (2 calls per 1m); retry in about 12s");
			});
		assertThat(this.executions).hasValue(2);
		assertThat(this.events).containsExactly(MiddlewareEvent.RATE_LIMIT_REJECTED);
	}

	@Test
	void permitsRefillAfterTheRefreshPeriod() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(1, Duration.ofSeconds(10)));
		handler.handle(call(null));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call(null)));
		advance(Duration.ofSeconds(10));
		assertThat(handler.handle(call(null))).isEqualTo("result 2");
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call(null)));
	}

	@Test
	void perSessionKeyLimitsEachSessionOnItsOwn() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(1, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION));
		handler.handle(call("s1"));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo("1 call per 1m per session"));
		assertThat(handler.handle(call("s2"))).isEqualTo("result 2");
		assertThat(handler.handle(call(null))).as("calls without a session share one limit").isEqualTo("result 3");
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call(null)));
	}

	@Test
	void perPrincipalKeyLimitsEachPrincipalOnItsOwn() throws Exception {
		ToolHandler handler = wrap(
				RateLimitPolicy.of(1, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_PRINCIPAL));
		handler.handle(principalCall("alice", "s1"));
		assertThatExceptionOfType(ToolRateLimitedException.class)
			.isThrownBy(() -> handler.handle(principalCall("alice", "s2")))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo("1 call per 1m per principal"));
		assertThat(handler.handle(principalCall("bob", "s1"))).isEqualTo("result 2");
	}

	@Test
	void idleSessionLimitersAreDroppedOnceTheyWouldHaveRefilled() throws Exception {
		RateLimitedHandler handler = (RateLimitedHandler) wrap(
				RateLimitPolicy.of(1, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION));
		handler.handle(call("s1"));
		handler.handle(call("s2"));
		handler.handle(call("s3"));
		assertThat(handler.trackedLimiters()).isEqualTo(3);
		advance(Duration.ofSeconds(30));
		assertThatExceptionOfType(ToolRateLimitedException.class).as("s1 is still limited after 30s")
			.isThrownBy(() -> handler.handle(call("s1")));
		assertThat(handler.trackedLimiters()).isEqualTo(3);
		advance(Duration.ofSeconds(61));
		assertThat(handler.trackedLimiters()).isZero();
		assertThat(handler.handle(call("s1"))).isEqualTo("result 4");
		assertThat(handler.trackedLimiters()).isEqualTo(1);
	}

	@Test
	void manySessionsKeepAtMostMaxTrackedKeysLimiters() throws Exception {
		RateLimitMiddleware middleware = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(1, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION))
			.ticker(this.ticker)
			.maxTrackedKeys(5)
			.build();
		RateLimitedHandler handler = (RateLimitedHandler) middleware.wrap(SEARCH, this.tool);
		for (int i = 0; i < 100; i++) {
			handler.handle(call("session-" + i));
		}
		assertThat(this.executions).hasValue(100);
		assertThat(handler.trackedLimiters()).isLessThanOrEqualTo(5);
	}

	@Test
	void aSessionBudgetIsNeverRefilledWhileTheSessionIsActive() throws Exception {
		RateLimitedHandler handler = (RateLimitedHandler) wrap(
				RateLimitPolicy.of(100, Duration.ofSeconds(1)).withMaxCallsPerSession(2));
		handler.handle(call("s1"));
		advance(Duration.ofMinutes(30));
		handler.handle(call("s1"));
		advance(Duration.ofMinutes(30));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> {
				assertThat(ex.limit()).isEqualTo("budget of 2 calls per session used up");
				assertThat(ex.retryAfter()).isZero();
				assertThat(ex.getMessage())
					.isEqualTo("Tool 'search' is rate limited (budget of 2 calls per session used up)");
			});
		assertThat(handler.handle(call("s2"))).as("another session has its own budget").isEqualTo("result 3");
		for (int i = 0; i < 5; i++) {
			handler.handle(call(null));
		}
		assertThat(this.executions).as("calls without a session have no budget").hasValue(8);
		assertThat(this.events).containsExactly(MiddlewareEvent.RATE_LIMIT_REJECTED);
		assertThat(handler.trackedBudgets()).isEqualTo(2);
	}

	@Test
	void aSessionIdleForTheIdleTimeoutIsForgotten() throws Exception {
		RateLimitMiddleware middleware = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(100, Duration.ofSeconds(1)).withMaxCallsPerSession(1))
			.ticker(this.ticker)
			.sessionIdleTimeout(Duration.ofMinutes(10))
			.build();
		RateLimitedHandler handler = (RateLimitedHandler) middleware.wrap(SEARCH, this.tool);
		handler.handle(call("s1"));
		advance(Duration.ofMinutes(9));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")));
		advance(Duration.ofMinutes(10));
		assertThat(handler.trackedBudgets()).isZero();
		assertThat(handler.handle(call("s1"))).isEqualTo("result 2");
	}

	@Test
	void aRateLimitedCallDoesNotUseUpTheBudget() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(1, Duration.ofMinutes(1))
			.withKey(RateLimitKey.TOOL_AND_SESSION)
			.withMaxCallsPerSession(2));
		handler.handle(call("s1"));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> assertThat(ex.limit()).startsWith("1 call per 1m"));
		advance(Duration.ofMinutes(1));
		assertThat(handler.handle(call("s1"))).isEqualTo("result 2");
		advance(Duration.ofMinutes(1));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> assertThat(ex.limit()).startsWith("budget of 2 calls"));
		assertThat(this.events).hasSize(2);
	}

	@Test
	void aCallMayWaitUpToMaxWaitForThePermit() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(1, Duration.ofMillis(10)).withMaxWait(Duration.ofMillis(1)));
		handler.handle(call(null));
		advance(Duration.ofNanos(9_900_000));
		assertThat(handler.handle(call(null))).as("waits 0.1ms for the next period").isEqualTo("result 2");
		assertThatExceptionOfType(ToolRateLimitedException.class)
			.as("the next permit is 10ms away, longer than the maximum wait")
			.isThrownBy(() -> handler.handle(call(null)));
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void concurrentCallsNeverExceedTheLimit() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(100, Duration.ofHours(1)));
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			CountDownLatch start = new CountDownLatch(1);
			AtomicInteger rejected = new AtomicInteger();
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < 50; i++) {
						try {
							handler.handle(call(null));
						}
						catch (ToolRateLimitedException ex) {
							rejected.incrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(10, TimeUnit.SECONDS);
			}
			assertThat(this.executions).hasValue(100);
			assertThat(rejected).hasValue(300);
			assertThat(this.events).hasSize(300);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void aToolWithoutAPolicyIsNotWrapped() {
		RateLimitMiddleware middleware = RateLimitMiddleware.builder().policies((tool) -> null).build();
		assertThat(middleware.wrap(SEARCH, this.tool)).isSameAs(this.tool);
	}

	@Test
	void joinsTheChainAsRateLimitAtItsDefaultOrder() throws Exception {
		RateLimitMiddleware middleware = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(1, Duration.ofMinutes(1)))
			.ticker(this.ticker)
			.build();
		assertThat(middleware.name()).isEqualTo("rate-limit");
		assertThat(middleware.order()).isEqualTo(BuiltInOrder.RATE_LIMIT);
		assertThat(RateLimitMiddleware.builder().policies((tool) -> null).order(42).build().order()).isEqualTo(42);
		ToolPipeline pipeline = ToolPipeline.chain(new ExecutableTool(SEARCH, this.tool), middleware);
		assertThat(pipeline.layers()).containsExactly("rate-limit", "search");
		pipeline.call(call(null));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> pipeline.call(call(null)));
	}

	@Test
	void policiesListOnlyTheToolsItLimits() {
		RateLimitPolicy policy = RateLimitPolicy.of(5, Duration.ofMinutes(1)).withMaxCallsPerSession(20);
		RateLimitMiddleware middleware = RateLimitMiddleware.builder()
			.policies((tool) -> tool.name().equals("search") ? policy : null)
			.build();
		middleware.wrap(SEARCH, this.tool);
		middleware.wrap(ToolDescriptor.builder("read_file").build(), this.tool);
		assertThat(middleware.policies()).containsExactly(Map.entry("search", policy));
	}

	@Test
	void policiesRejectValuesOutOfRangeNamingThem() {
		assertThatIllegalArgumentException().isThrownBy(() -> RateLimitPolicy.of(0, Duration.ofMinutes(1)))
			.withMessageContaining("limitForPeriod");
		assertThatIllegalArgumentException().isThrownBy(() -> RateLimitPolicy.of(1, Duration.ZERO))
			.withMessageContaining("limitRefreshPeriod");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitPolicy.of(1, Duration.ofSeconds(1)).withMaxWait(Duration.ofSeconds(-1)))
			.withMessageContaining("maxWait");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitPolicy.of(1, Duration.ofSeconds(1)).withMaxCallsPerSession(0))
			.withMessageContaining("maxCallsPerSession");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitMiddleware.builder().policies((tool) -> null).maxTrackedKeys(0))
			.withMessageContaining("maxTrackedKeys");
	}

	@Test
	void anUnavailableStoreRejectsTheCallWithADistinctReasonByDefault() {
		RateLimiterStore unavailable = unavailableStore();
		ToolHandler handler = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(5, Duration.ofMinutes(1)))
			.store(unavailable)
			.metrics(this.metrics)
			.build()
			.wrap(SEARCH, this.tool);
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> {
				assertThat(ex.limit()).isEqualTo("rate limiter unavailable");
				assertThat(ex.getMessage()).isEqualTo("Tool 'search' is rate limited (rate limiter unavailable)");
				assertThat(ex.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
			});
		assertThat(this.executions).hasValue(0);
		assertThat(this.events).containsExactly(MiddlewareEvent.RATE_LIMIT_REJECTED);
	}

	@Test
	void anUnavailableStoreLetsTheCallRunWhenBuiltToFailOpen() throws Exception {
		ToolHandler handler = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(5, Duration.ofMinutes(1)))
			.store(unavailableStore())
			.allowWhenStoreUnavailable(true)
			.metrics(this.metrics)
			.build()
			.wrap(SEARCH, this.tool);
		assertThat(handler.handle(call("s1"))).isEqualTo("result 1");
		assertThat(this.events).isEmpty();
	}

	@Test
	void aStoreIsAskedPerKeyAndItsRetryAfterReachesTheException() {
		List<String> keys = new ArrayList<>();
		RateLimiterStore store = new RateLimiterStore() {

			@Override
			public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
				return (key) -> {
					keys.add(toolName + "/" + key);
					return RateLimitDecision.rejected(Duration.ofSeconds(7));
				};
			}

			@Override
			public String description() {
				return "test";
			}

		};
		ToolHandler handler = RateLimitMiddleware.builder()
			.policies((tool) -> RateLimitPolicy.of(5, Duration.ofMinutes(1)).withKey(RateLimitKey.TOOL_AND_SESSION))
			.store(store)
			.build()
			.wrap(SEARCH, this.tool);
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(7)));
		assertThat(keys).containsExactly("search/s1");
	}

	private static RateLimiterStore unavailableStore() {
		return new RateLimiterStore() {

			@Override
			public ToolLimiter limiter(String toolName, RateLimitPolicy policy) {
				return (key) -> {
					throw new RateLimiterUnavailableException("database unreachable",
							new IllegalStateException("connection refused"));
				};
			}

			@Override
			public String description() {
				return "unavailable";
			}

		};
	}

	@Test
	void aCallOfASessionWithAllItsCallsRunningIsRejectedAndOtherSessionsAreNot() throws Exception {
		CountDownLatch started = new CountDownLatch(2);
		CountDownLatch release = new CountDownLatch(1);
		ToolHandler blocking = (invocation) -> {
			started.countDown();
			release.await(10, TimeUnit.SECONDS);
			return "done " + invocation.sessionId();
		};
		RateLimitedHandler handler = concurrencyLimited(2, blocking);
		ExecutorService executor = Executors.newFixedThreadPool(2);
		try {
			Future<?> first = executor.submit(() -> handler.handle(call("s1")));
			Future<?> second = executor.submit(() -> handler.handle(call("s1")));
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
				.satisfies((ex) -> {
					assertThat(ex.outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
					assertThat(ex.retryAfter()).isZero();
					assertThat(ex.getMessage())
						.isEqualTo("Tool 'search' is rate limited (2 calls of this session already running)");
				});
			assertThat(this.events).containsExactly(MiddlewareEvent.RATE_LIMIT_REJECTED);
			release.countDown();
			assertThat(handler.handle(call("s2"))).as("another session has its own slots").isEqualTo("done s2");
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done s1");
			assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("done s1");
			assertThat(handler.handle(call("s1"))).as("slots are given back when calls end").isEqualTo("done s1");
			assertThat(handler.trackedRunningSessions()).as("no count is kept for a session with nothing running")
				.isZero();
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
	}

	@Test
	void aFailedCallGivesItsSlotBack() throws Exception {
		AtomicInteger calls = new AtomicInteger();
		ToolHandler failingOnce = (invocation) -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("disk full");
			}
			return "ok";
		};
		RateLimitedHandler handler = concurrencyLimited(1, failingOnce);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> handler.handle(call("s1")));
		assertThat(handler.trackedRunningSessions()).isZero();
		assertThat(handler.handle(call("s1"))).isEqualTo("ok");
		assertThat(this.events).isEmpty();
	}

	@Test
	void aCallRejectedByTheRateLimitGivesItsSlotBack() throws Exception {
		ToolHandler handler = wrap(RateLimitPolicy.of(1, Duration.ofMinutes(1)).withMaxConcurrentCalls(1));
		handler.handle(call("s1"));
		assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call("s1")))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo("1 call per 1m"));
		assertThat(((RateLimitedHandler) handler).trackedRunningSessions()).isZero();
	}

	@Test
	void callsWithoutASessionShareOneCapPerTool() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ToolHandler blocking = (invocation) -> {
			started.countDown();
			release.await(10, TimeUnit.SECONDS);
			return "done";
		};
		RateLimitedHandler handler = concurrencyLimited(1, blocking);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<?> running = executor.submit(() -> handler.handle(call(null)));
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
			assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> handler.handle(call(null)))
				.withMessage("Tool 'search' is rate limited (1 call without a session already running)");
			release.countDown();
			assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(handler.handle(call(null))).isEqualTo("done");
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
	}

	@Test
	void maxConcurrentCallsMustBeAtLeastOne() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimitPolicy.of(1, Duration.ofSeconds(1)).withMaxConcurrentCalls(0))
			.withMessageContaining("maxConcurrentCalls must be at least 1");
	}

	private RateLimitedHandler concurrencyLimited(int maxConcurrentCalls, ToolHandler tool) {
		return (RateLimitedHandler) RateLimitMiddleware.builder()
			.policies((descriptor) -> RateLimitPolicy.of(100, Duration.ofSeconds(1))
				.withMaxConcurrentCalls(maxConcurrentCalls))
			.ticker(this.ticker)
			.metrics(this.metrics)
			.build()
			.wrap(SEARCH, tool);
	}

	private ToolHandler wrap(RateLimitPolicy policy) {
		return RateLimitMiddleware.builder()
			.policies((tool) -> policy)
			.ticker(this.ticker)
			.metrics(this.metrics)
			.build()
			.wrap(SEARCH, this.tool);
	}

	private void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	private static ToolInvocation call(@Nullable String session) {
		return ToolInvocation.builder(SEARCH).sessionId(session).build();
	}

	private static ToolInvocation principalCall(String principal, String session) {
		return ToolInvocation.builder(SEARCH).principal(principal).sessionId(session).build();
	}

}
