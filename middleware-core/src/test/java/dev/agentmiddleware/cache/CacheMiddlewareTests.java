package dev.agentmiddleware.cache;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.fail;

class CacheMiddlewareTests {

	private static final ToolDescriptor READ_FILE = ToolDescriptor.builder("read_file").readOnly(true).build();

	private static final ToolDescriptor WRITE_FILE = ToolDescriptor.builder("write_file").build();

	private final AtomicLong nanos = new AtomicLong();

	private final Ticker ticker = this.nanos::get;

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final MiddlewareMetrics metrics = (event, toolName) -> this.events.add(event + ":" + toolName);

	private final ToolResultCache results = ToolResultCache.builder().ticker(this.ticker).metrics(this.metrics).build();

	private final AtomicInteger executions = new AtomicInteger();

	private final List<Thread> callers = new CopyOnWriteArrayList<>();

	private final ExecutorService executor = Executors.newFixedThreadPool(8, (task) -> {
		Thread thread = new Thread(task, "cache-caller");
		this.callers.add(thread);
		return thread;
	});

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aRepeatedCallIsAnsweredFromTheCacheWithoutRunningTheTool() throws Exception {
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, counting());
		assertThat(pipeline.layers()).containsExactly("cache", "read_file");
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/b")))).isEqualTo("content of /b #2");
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void argumentOrderAndNestedKeyOrderDoNotMatter() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		Map<String, Object> first = new LinkedHashMap<>();
		first.put("path", "/a");
		first.put("options", ordered("encoding", "utf-8", "range", ordered("from", 1, "to", 9)));
		first.put("lines", new int[] { 1, 2 });
		Map<String, Object> second = new LinkedHashMap<>();
		second.put("lines", new int[] { 1, 2 });
		second.put("options", ordered("range", ordered("to", 9, "from", 1), "encoding", "utf-8"));
		second.put("path", "/a");
		pipeline.call(call(READ_FILE, "s1", first));
		pipeline.call(call(READ_FILE, "s1", second));
		assertThat(this.executions).hasValue(1);
		second.put("lines", new int[] { 2, 1 });
		pipeline.call(call(READ_FILE, "s1", second));
		assertThat(this.executions).as("list and array order does matter").hasValue(2);
		CacheStatistics statistics = this.results.statistics().get("read_file");
		assertThat(statistics).isEqualTo(new CacheStatistics(1, 2, 0, 2));
		assertThat(statistics.hitRate()).isEqualTo(1 / 3.0);
	}

	@Test
	void argumentsThatSerialiseToTheSameJsonShareAnEntryEvenWithoutEquals() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		Object first = pipeline.call(call(READ_FILE, "s1", Map.of("query", new Query("Lisbon", 3))));
		Object second = pipeline.call(call(READ_FILE, "s1", Map.of("query", new Query("Lisbon", 3))));
		assertThat(new Query("Lisbon", 3)).as("the DTO has no equals").isNotEqualTo(new Query("Lisbon", 3));
		assertThat(second).isEqualTo(first);
		assertThat(this.executions).hasValue(1);
		pipeline.call(call(READ_FILE, "s1", Map.of("query", new Query("Lisbon", 4))));
		assertThat(this.executions).as("different JSON, different entry").hasValue(2);
		pipeline.call(call(READ_FILE, "s1", Map.of("query", ordered("days", 3, "city", "Lisbon"))));
		assertThat(this.executions).as("a map with the same JSON is the same key").hasValue(2);
		this.results.invalidate("read_file", Map.of("query", new Query("Lisbon", 3)));
		pipeline.call(call(READ_FILE, "s1", Map.of("query", new Query("Lisbon", 3))));
		assertThat(this.executions).as("invalidated by an equal-JSON DTO").hasValue(3);
	}

	@Test
	void changingTheCallersCollectionAfterTheCallDoesNotCorruptTheEntry() throws Exception {
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, counting());
		List<String> paths = new ArrayList<>(List.of("/a", "/b"));
		pipeline.call(call(READ_FILE, "s1", Map.of("paths", paths)));
		paths.add("/c");
		pipeline.call(call(READ_FILE, "s1", Map.of("paths", List.of("/a", "/b"))));
		assertThat(this.executions).hasValue(1);
		pipeline.call(call(READ_FILE, "s1", Map.of("paths", paths)));
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void oneSessionNeverSeesAnotherSessionsEntry() throws Exception {
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, counting());
		assertThat(pipeline.call(call(READ_FILE, "alice-session", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		assertThat(pipeline.call(call(READ_FILE, "bob-session", Map.of("path", "/a")))).isEqualTo("content of /a #2");
		assertThat(pipeline.call(call(READ_FILE, "alice-session", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void aCallWithoutSessionBypassesTheSessionScopedCache() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		pipeline.call(call(READ_FILE, null, Map.of("path", "/a")));
		pipeline.call(call(READ_FILE, null, Map.of("path", "/a")));
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics().get("read_file")).isEqualTo(new CacheStatistics(0, 0, 0, 0));
		assertThat(this.events).isEmpty();
	}

	@Test
	void principalScopeIsSharedAcrossSessionsOfOnePrincipalOnly() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofMinutes(1), 10, CacheScope.PRINCIPAL);
		ToolPipeline pipeline = pipeline(cache().defaultPolicy(policy).build(), READ_FILE, counting());
		Map<String, Object> arguments = Map.of("path", "/a");
		assertThat(pipeline.call(call(READ_FILE, "s1", "alice", arguments))).isEqualTo("content of /a #1");
		assertThat(pipeline.call(call(READ_FILE, "s2", "alice", arguments))).isEqualTo("content of /a #1");
		assertThat(pipeline.call(call(READ_FILE, "s1", "bob", arguments))).isEqualTo("content of /a #2");
		pipeline.call(call(READ_FILE, "s1", null, arguments));
		pipeline.call(call(READ_FILE, "s1", null, arguments));
		assertThat(this.executions).as("no principal: no caching").hasValue(4);
	}

	@Test
	void globalScopeIsSharedByEveryCaller() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofMinutes(1), 10, CacheScope.GLOBAL);
		ToolPipeline pipeline = pipeline(cache().defaultPolicy(policy).build(), READ_FILE, counting());
		Map<String, Object> arguments = Map.of("path", "/a");
		pipeline.call(call(READ_FILE, "s1", "alice", arguments));
		pipeline.call(call(READ_FILE, "s2", "bob", arguments));
		pipeline.call(call(READ_FILE, null, null, arguments));
		assertThat(this.executions).hasValue(1);
	}

	@Test
	void anEntryExpiresAfterItsTimeToLive() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofSeconds(30), 10, CacheScope.SESSION);
		CacheMiddleware cache = cache().defaultPolicy(policy).build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		this.nanos.addAndGet(Duration.ofSeconds(29).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #2");
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics().get("read_file")).isEqualTo(new CacheStatistics(1, 2, 1, 1));
		assertThat(this.events).containsOnlyOnce("CACHE_EVICTION:read_file");
	}

	@Test
	void aSlowCallsResultIsKeptForTheWholeTimeToLiveAfterItWasComputed() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofSeconds(30), 10, CacheScope.SESSION);
		CacheMiddleware cache = cache().defaultPolicy(policy).build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, taking(Duration.ofSeconds(20)));
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		// 49 s after the call started, 29 s after its result
		this.nanos.addAndGet(Duration.ofSeconds(29).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #2");
	}

	@Test
	void aQuickCallsTimeToLiveCountsFromItsStartWithinAHundredthOfIt() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofSeconds(100), 10, CacheScope.SESSION);
		CacheMiddleware cache = cache().defaultPolicy(policy).build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, taking(Duration.ofSeconds(1)));
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		this.nanos.addAndGet(Duration.ofSeconds(98).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #1");
		// 100 s after the start, 99 s after the result
		this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("content of /a #2");
	}

	@Test
	void theSizeLimitEvictsEntries() throws Exception {
		CachePolicy policy = new CachePolicy(Duration.ofMinutes(1), 2, CacheScope.SESSION);
		CacheMiddleware cache = cache().defaultPolicy(policy).build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		for (String path : List.of("/a", "/b", "/c", "/d")) {
			pipeline.call(call(READ_FILE, "s1", Map.of("path", path)));
		}
		CacheStatistics statistics = this.results.statistics().get("read_file");
		assertThat(statistics.size()).isEqualTo(2);
		assertThat(statistics.evictions()).isEqualTo(2);
		assertThat(this.events).filteredOn("CACHE_EVICTION:read_file"::equals).hasSize(2);
	}

	@Test
	void failuresAreNeverCachedAndPropagateUnchanged() throws Exception {
		IOException failure = new IOException("disk unavailable");
		AtomicInteger calls = new AtomicInteger();
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, (invocation) -> {
			if (calls.incrementAndGet() == 1) {
				throw failure;
			}
			return "recovered";
		});
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a"))))
			.isSameAs(failure);
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("recovered");
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("recovered");
		assertThat(calls).hasValue(2);
	}

	@Test
	void nullResultsAreCachedToo() throws Exception {
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, (invocation) -> {
			this.executions.incrementAndGet();
			return null;
		});
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isNull();
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isNull();
		assertThat(this.executions).hasValue(1);
	}

	@Test
	void concurrentIdenticalCallsRunTheToolOnceWithoutBlockingOtherKeys() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, (invocation) -> {
			if ("/slow".equals(invocation.argument("path"))) {
				entered.countDown();
				assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
			}
			return "content of " + invocation.argument("path") + " #" + this.executions.incrementAndGet();
		});
		List<Future<Object>> results = callConcurrently(8, pipeline, call(READ_FILE, "s1", Map.of("path", "/slow")));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		awaitAllWaiting();
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/fast")))).isEqualTo("content of /fast #1");
		release.countDown();
		for (Future<Object> result : results) {
			assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("content of /slow #2");
		}
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics().get("read_file")).isEqualTo(new CacheStatistics(7, 2, 0, 2));
	}

	@Test
	void callsWaitingForAFailedFlightSeeTheSameFailureAndTheNextCallRunsAgain() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		IOException failure = new IOException("disk unavailable");
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, (invocation) -> {
			if (this.executions.incrementAndGet() == 1) {
				entered.countDown();
				assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
				throw failure;
			}
			return "recovered";
		});
		List<Future<Object>> results = callConcurrently(4, pipeline, call(READ_FILE, "s1", Map.of("path", "/a")));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		awaitAllWaiting();
		release.countDown();
		for (Future<Object> result : results) {
			try {
				result.get(10, TimeUnit.SECONDS);
				fail("expected the flight's failure");
			}
			catch (java.util.concurrent.ExecutionException ex) {
				assertThat(ex.getCause()).isSameAs(failure);
			}
		}
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("recovered");
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void onlyReadOnlyToolsAreCachedByDefault() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, WRITE_FILE, counting());
		assertThat(pipeline.layers()).containsExactly("write_file");
		pipeline.call(call(WRITE_FILE, "s1", Map.of("path", "/a")));
		pipeline.call(call(WRITE_FILE, "s1", Map.of("path", "/a")));
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics()).isEmpty();
	}

	@Test
	void aPolicyFunctionForcesCachingOnOrOffPerTool() throws Exception {
		CachePolicy global = new CachePolicy(Duration.ofMinutes(1), 10, CacheScope.GLOBAL);
		CacheMiddleware cache = cache().policies((tool) -> tool.name().equals("write_file") ? global : null).build();
		assertThat(pipeline(cache, READ_FILE, counting()).layers()).containsExactly("read_file");
		ToolPipeline forced = pipeline(cache, WRITE_FILE, counting());
		assertThat(forced.layers()).containsExactly("cache", "write_file");
		forced.call(call(WRITE_FILE, "s1", Map.of("path", "/a")));
		forced.call(call(WRITE_FILE, "s2", Map.of("path", "/a")));
		assertThat(this.executions).hasValue(1);
		assertThat(cache.policies()).containsExactly(Map.entry("write_file", global));
	}

	@Test
	void observersSeeAHitAsCachedDecidedByTheCache() throws Exception {
		List<ToolCallRecord> records = new CopyOnWriteArrayList<>();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		}).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(READ_FILE, counting())
				.middleware(cache().build())
				.observers(observers)
				.build();
			pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
			pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		}
		assertThat(records).extracting(ToolCallRecord::outcome)
			.containsExactly(CallOutcome.SUCCEEDED, CallOutcome.CACHED);
		assertThat(records).extracting(ToolCallRecord::decidedBy).containsExactly(null, "cache");
		assertThat(records.get(1).result()).isEqualTo("content of /a #1");
	}

	@Test
	void hitsAndMissesAreCountedPerTool() throws Exception {
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, counting());
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		assertThat(this.events).containsExactly("CACHE_MISS:read_file", "CACHE_HIT:read_file", "CACHE_HIT:read_file");
	}

	@Test
	void invalidatingAToolRemovesAllItsEntriesInEveryScope() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		pipeline.call(call(READ_FILE, "s2", Map.of("path", "/b")));
		this.results.invalidate("read_file");
		this.results.invalidate("unknown_tool");
		assertThat(this.results.statistics().get("read_file").size()).isZero();
		pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")));
		assertThat(this.executions).hasValue(3);
		assertThat(this.results.statistics().get("read_file").evictions()).as("invalidation is no eviction").isZero();
	}

	@Test
	void invalidatingArgumentsRemovesThoseEntriesInEverySessionOnly() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/a", "encoding", "utf-8")));
		pipeline.call(call(READ_FILE, "s2", ordered("path", "/a", "encoding", "utf-8")));
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/b", "encoding", "utf-8")));
		this.results.invalidate("read_file", ordered("encoding", "utf-8", "path", "/a"));
		assertThat(this.results.statistics().get("read_file").size()).isEqualTo(1);
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/b", "encoding", "utf-8")));
		assertThat(this.executions).hasValue(3);
		pipeline.call(call(READ_FILE, "s2", ordered("path", "/a", "encoding", "utf-8")));
		assertThat(this.executions).hasValue(4);
	}

	@Test
	void invalidatingByPredicateRemovesMatchingEntries() throws Exception {
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, counting());
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/a", "encoding", "utf-8")));
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/a", "encoding", "latin-1")));
		pipeline.call(call(READ_FILE, "s1", ordered("path", "/b", "encoding", "utf-8")));
		this.results.invalidate("read_file", (arguments) -> "/a".equals(arguments.get("path")));
		assertThat(this.results.statistics().get("read_file").size()).isEqualTo(1);
		this.results.invalidateAll();
		assertThat(this.results.statistics().get("read_file").size()).isZero();
	}

	@Test
	void aResultStillInFlightWhenInvalidatedIsReturnedButNotStored() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CacheMiddleware cache = cache().build();
		ToolPipeline pipeline = pipeline(cache, READ_FILE, (invocation) -> {
			if (this.executions.incrementAndGet() == 1) {
				entered.countDown();
				assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
				return "stale";
			}
			return "fresh";
		});
		List<Future<Object>> results = callConcurrently(1, pipeline, call(READ_FILE, "s1", Map.of("path", "/a")));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		this.results.invalidate("read_file", Map.of("path", "/a"));
		release.countDown();
		assertThat(results.get(0).get(10, TimeUnit.SECONDS)).isEqualTo("stale");
		assertThat(pipeline.call(call(READ_FILE, "s1", Map.of("path", "/a")))).isEqualTo("fresh");
	}

	@Test
	void isNamedCacheAndOrderedAsTheBuiltInByDefault() {
		assertThat(cache().build().name()).isEqualTo("cache");
		assertThat(cache().build().order()).isEqualTo(BuiltInOrder.CACHE);
		assertThat(cache().order(650).build().order()).isEqualTo(650);
	}

	@Test
	void aPolicyRejectsANonPositiveTimeToLiveOrSize() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CachePolicy(Duration.ZERO, 10, CacheScope.SESSION))
			.withMessageContaining("ttl must be positive");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CachePolicy(Duration.ofMinutes(1), 0, CacheScope.SESSION))
			.withMessageContaining("maxSize must be at least 1");
	}

	@Test
	void aRichResultIsCachedAndEveryHitGetsAnEqualResult() throws Exception {
		byte[] png = { 1, 2, 3 };
		ToolPipeline pipeline = pipeline(cache().build(), READ_FILE, (invocation) -> {
			this.executions.incrementAndGet();
			return ToolContents.of(ToolContent.text("chart of " + invocation.argument("path")),
					ToolContent.image(png, "image/png"));
		});
		Object first = pipeline.call(call(READ_FILE, "s1", Map.of("path", "march")));
		png[0] = 9; // the tool's own array, changed after it returned: the cached result
					// keeps its copy
		Object second = pipeline.call(call(READ_FILE, "s1", Map.of("path", "march")));
		assertThat(this.executions).hasValue(1);
		assertThat(second).isInstanceOf(ToolContents.class)
			.isEqualTo(first)
			.isEqualTo(ToolContents.of(ToolContent.text("chart of march"),
					ToolContent.image(new byte[] { 1, 2, 3 }, "image/png")));
		assertThat(this.events).contains("CACHE_MISS:read_file", "CACHE_HIT:read_file");
	}

	private CacheMiddleware.Builder cache() {
		return CacheMiddleware.builder().cache(this.results);
	}

	private ToolHandler counting() {
		return (invocation) -> "content of " + invocation.argument("path") + " #" + this.executions.incrementAndGet();
	}

	// A counting tool whose every run moves the cache's ticker on by this much
	private ToolHandler taking(Duration duration) {
		ToolHandler counting = counting();
		return (invocation) -> {
			this.nanos.addAndGet(duration.toNanos());
			return counting.handle(invocation);
		};
	}

	private static ToolPipeline pipeline(CacheMiddleware cache, ToolDescriptor tool, ToolHandler handler) {
		return ToolPipeline.builder(tool, handler).middleware(cache).build();
	}

	private static ToolInvocation call(ToolDescriptor tool, @Nullable String session, Map<String, ?> arguments) {
		return call(tool, session, null, arguments);
	}

	private static ToolInvocation call(ToolDescriptor tool, @Nullable String session, @Nullable String principal,
			Map<String, ?> arguments) {
		return ToolInvocation.builder(tool).sessionId(session).principal(principal).arguments(arguments).build();
	}

	private static Map<String, Object> ordered(Object... keysAndValues) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			map.put((String) keysAndValues[i], keysAndValues[i + 1]);
		}
		return map;
	}

	private List<Future<Object>> callConcurrently(int threads, ToolPipeline pipeline, ToolInvocation invocation) {
		List<Future<Object>> results = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			results.add(this.executor.submit(() -> pipeline.call(invocation)));
		}
		return Collections.unmodifiableList(results);
	}

	/**
	 * Waits until every calling thread is parked: the flight's leader on its latch, the
	 * others on the flight.
	 */
	private void awaitAllWaiting() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			if (this.callers.stream()
				.allMatch((thread) -> thread.getState() == Thread.State.WAITING
						|| thread.getState() == Thread.State.TIMED_WAITING)) {
				return;
			}
			Thread.onSpinWait();
		}
		fail("the calling threads did not all start waiting");
	}

	/** A JavaBean DTO without equals and hashCode, as many applications have. */
	public static final class Query {

		private String city;

		private int days;

		public Query(String city, int days) {
			this.city = city;
			this.days = days;
		}

		public String getCity() {
			return this.city;
		}

		public int getDays() {
			return this.days;
		}

	}

}
