package dev.agentmiddleware.cache;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.metrics.MiddlewareEvent;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * Answers repeated calls of a tool with the same arguments from a cache, without running the tool again. Each tool
 * the policy function gives a {@link CachePolicy} gets its own Caffeine cache, created when its pipeline is built,
 * with that policy's time to live and size; by default only {@linkplain ToolDescriptor#readOnly() read-only} tools
 * are cached, with {@link CachePolicy#DEFAULT}. Named {@code cache}; default order {@link BuiltInOrder#CACHE}.
 *
 * <p><b>Key:</b> the bound arguments in structural form (the order of arguments and of keys in nested maps does
 * not matter; lists and arrays compare element by element; other values by their own {@code equals}, so argument
 * types without one, unlike records, never hit) plus the scope value: the session id ({@link CacheScope#SESSION}),
 * the principal ({@link CacheScope#PRINCIPAL}) or nothing ({@link CacheScope#GLOBAL}). A call that lacks its scope
 * value (no session id under {@code SESSION}, no principal under {@code PRINCIPAL}) <em>bypasses</em> the cache: it
 * runs the tool and neither reads nor stores a result, so anonymous callers never share results with each other or
 * with anyone else; it counts neither as a hit nor as a miss.
 *
 * <p><b>Hits and misses:</b> a hit returns the cached value (shared: tools should return immutable values),
 * {@linkplain ToolCall#decide reports} {@link CallOutcome#CACHED} so observers see it, and counts
 * {@link MiddlewareEvent#CACHE_HIT}; a miss runs the tool and counts {@link MiddlewareEvent#CACHE_MISS}; an entry
 * removed by the size limit or the time to live counts {@link MiddlewareEvent#CACHE_EVICTION}. {@code null} results
 * are cached too. Failures are never cached.
 *
 * <p><b>Single flight:</b> concurrent calls with the same key run the tool once; the others wait for that call's
 * result and count as hits. Calls with other keys are never blocked by it. If the running call fails, every call
 * that was waiting for it fails with the same exception instance (checked or not, unwrapped), and the failure is
 * not kept: the next call runs the tool again. A waiting thread that is interrupted fails with
 * {@link InterruptedException}. A tool must not call itself with the same arguments in the same scope: that call
 * would wait for itself.
 *
 * <p><b>Invalidation:</b> {@link #invalidate(String)}, {@link #invalidate(String, Map)} and
 * {@link #invalidate(String, Predicate)} remove entries, for example after a tool that writes what another one
 * reads. An identical call still in flight when its entry is invalidated returns its result to its callers but
 * does not store it. Thread-safe.
 * <pre>{@code
 * CacheMiddleware cache = CacheMiddleware.builder()
 *     .policies(tool -> switch (tool.name()) {
 *         case "search_docs" -> new CachePolicy(Duration.ofHours(1), 10_000, CacheScope.GLOBAL);
 *         case "read_file" -> CachePolicy.DEFAULT;
 *         default -> null;
 *     })
 *     .metrics(metrics)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(readFileTool, cache);
 * // after writing a file:
 * cache.invalidate("read_file", Map.of("path", path));
 * }</pre>
 */
public final class CacheMiddleware implements OrderedMiddleware {

	/** The name of this middleware in printed chains and in observer records. */
	public static final String NAME = "cache";

	/** Stands for a cached {@code null}: Caffeine keeps no {@code null} values. */
	private static final Object NULL_RESULT = new Object();

	private final Function<ToolDescriptor, @Nullable CachePolicy> policies;

	private final int order;

	private final Ticker ticker;

	private final MiddlewareMetrics metrics;

	private final ConcurrentMap<String, ToolCache> caches = new ConcurrentHashMap<>();

	private CacheMiddleware(Builder builder) {
		this.policies = builder.policies;
		this.order = builder.order;
		this.ticker = builder.ticker;
		this.metrics = builder.metrics;
	}

	/**
	 * Starts a cache middleware that caches read-only tools with {@link CachePolicy#DEFAULT}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int order() {
		return this.order;
	}

	/**
	 * Creates the tool's cache when its policy function gives it a policy; otherwise returns {@code next}. Building
	 * a pipeline for the same tool again keeps its cache when the policy is unchanged and replaces it otherwise.
	 * @param tool the tool
	 * @param next the rest of the chain
	 * @return the caching handler, or {@code next}
	 */
	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		CachePolicy policy = this.policies.apply(tool);
		if (policy == null) {
			return next;
		}
		ToolCache cache = this.caches.compute(tool.name(),
				(name, existing) -> (existing != null && existing.policy.equals(policy)) ? existing
						: new ToolCache(name, policy, this.ticker, this.metrics));
		return new CachingHandler(cache, next, this.metrics);
	}

	/**
	 * Removes every cached result of a tool, in every scope.
	 * @param toolName the tool; a tool without a cache is ignored
	 */
	public void invalidate(String toolName) {
		ToolCache cache = this.caches.get(Objects.requireNonNull(toolName, "toolName"));
		if (cache != null) {
			cache.results.synchronous().invalidateAll();
		}
	}

	/**
	 * Removes a tool's cached results for exactly these arguments, in every scope. Arguments compare structurally,
	 * as in the key; all of the tool's arguments must be given.
	 * <pre>{@code
	 * cache.invalidate("read_file", Map.of("path", "/tmp/notes.txt"));
	 * }</pre>
	 * @param toolName the tool; a tool without a cache is ignored
	 * @param arguments the arguments by parameter name
	 */
	public void invalidate(String toolName, Map<String, ?> arguments) {
		Map<String, @Nullable Object> canonical = CacheKey.canonicalArguments(arguments);
		invalidate(toolName, canonical::equals);
	}

	/**
	 * Removes a tool's cached results whose arguments match, in every scope.
	 * <pre>{@code
	 * cache.invalidate("read_file", (arguments) -> path.equals(arguments.get("path")));
	 * }</pre>
	 * @param toolName the tool; a tool without a cache is ignored
	 * @param argumentsMatch tests the arguments of an entry (unmodifiable, in structural form: arrays and other
	 * collections appear as lists, sets and maps)
	 */
	public void invalidate(String toolName, Predicate<? super Map<String, @Nullable Object>> argumentsMatch) {
		Objects.requireNonNull(argumentsMatch, "argumentsMatch");
		ToolCache cache = this.caches.get(Objects.requireNonNull(toolName, "toolName"));
		if (cache != null) {
			cache.results.asMap().keySet().removeIf((key) -> argumentsMatch.test(key.arguments()));
		}
	}

	/**
	 * Removes every cached result of every tool.
	 */
	public void invalidateAll() {
		for (ToolCache cache : this.caches.values()) {
			cache.results.synchronous().invalidateAll();
		}
	}

	/**
	 * The statistics of each cached tool, after pending expirations and evictions have been carried out.
	 * @return an unmodifiable map from tool name to its statistics, in no particular order
	 */
	public Map<String, CacheStatistics> statistics() {
		Map<String, CacheStatistics> statistics = new LinkedHashMap<>();
		this.caches.forEach((name, cache) -> statistics.put(name, cache.statistics()));
		return Collections.unmodifiableMap(statistics);
	}

	/**
	 * The policy each cached tool was given.
	 * @return an unmodifiable map from tool name to its policy, in no particular order
	 */
	public Map<String, CachePolicy> policies() {
		Map<String, CachePolicy> policies = new LinkedHashMap<>();
		this.caches.forEach((name, cache) -> policies.put(name, cache.policy));
		return Collections.unmodifiableMap(policies);
	}

	@Override
	public String toString() {
		return "CacheMiddleware[order=" + this.order + ", tools=" + this.caches.keySet() + "]";
	}

	/**
	 * The failure of a flight, handed to the calls that waited for it; never kept in the cache.
	 */
	private record Failure(Throwable error) {
	}

	private static Exception rethrow(Throwable failure) {
		if (failure instanceof Error error) {
			throw error;
		}
		return (failure instanceof Exception exception) ? exception : new IllegalStateException(failure);
	}

	/**
	 * One tool's cache and counters.
	 */
	private static final class ToolCache {

		private final CachePolicy policy;

		private final AsyncCache<CacheKey, Object> results;

		private final LongAdder hits = new LongAdder();

		private final LongAdder misses = new LongAdder();

		private final LongAdder evictions = new LongAdder();

		ToolCache(String toolName, CachePolicy policy, Ticker ticker, MiddlewareMetrics metrics) {
			this.policy = policy;
			this.results = Caffeine.newBuilder()
				.expireAfterWrite(policy.ttl())
				.maximumSize(policy.maxSize())
				.ticker(ticker)
				// Maintenance (and so the eviction listener) runs on the calling thread: no pool hops, and
				// deterministic statistics.
				.executor(Runnable::run)
				.<CacheKey, Object>evictionListener((key, value, cause) -> {
					if (cause.wasEvicted()) {
						this.evictions.increment();
						metrics.count(MiddlewareEvent.CACHE_EVICTION, toolName);
					}
				})
				.buildAsync();
		}

		CacheStatistics statistics() {
			this.results.synchronous().cleanUp();
			return new CacheStatistics(this.hits.sum(), this.misses.sum(), this.evictions.sum(),
					this.results.synchronous().estimatedSize());
		}

	}

	/**
	 * The per-call side: looks the key up, leads a flight on a miss, or waits for the flight in progress.
	 */
	private static final class CachingHandler implements ToolHandler {

		private final ToolCache cache;

		private final ConcurrentMap<CacheKey, CompletableFuture<Object>> results;

		private final ToolHandler next;

		private final MiddlewareMetrics metrics;

		private final CacheScope scope;

		CachingHandler(ToolCache cache, ToolHandler next, MiddlewareMetrics metrics) {
			this.cache = cache;
			this.results = cache.results.asMap();
			this.next = next;
			this.metrics = metrics;
			this.scope = cache.policy.scope();
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			String scopeValue = switch (this.scope) {
				case SESSION -> invocation.sessionId();
				case PRINCIPAL -> invocation.principal();
				case GLOBAL -> null;
			};
			if (scopeValue == null && this.scope != CacheScope.GLOBAL) {
				return this.next.handle(invocation);
			}
			CacheKey key = CacheKey.of(scopeValue, invocation.arguments());
			CompletableFuture<Object> entry = this.results.get(key);
			if (entry == null) {
				CompletableFuture<Object> flight = new CompletableFuture<>();
				entry = this.results.putIfAbsent(key, flight);
				if (entry == null) {
					return lead(invocation, key, flight);
				}
			}
			return await(invocation, entry);
		}

		private @Nullable Object lead(ToolInvocation invocation, CacheKey key, CompletableFuture<Object> flight)
				throws Exception {
			this.cache.misses.increment();
			this.metrics.count(MiddlewareEvent.CACHE_MISS, invocation.toolName());
			Object result;
			try {
				result = this.next.handle(invocation);
			}
			catch (Throwable ex) {
				// Remove first, so that a call arriving now starts a new flight instead of seeing this failure. The
				// waiters get the failure as a value: Caffeine logs every future that completes exceptionally.
				this.results.remove(key, flight);
				flight.complete(new Failure(ex));
				throw ex;
			}
			flight.complete((result != null) ? result : NULL_RESULT);
			return result;
		}

		private @Nullable Object await(ToolInvocation invocation, CompletableFuture<Object> entry) throws Exception {
			// Returns at once on a hit; blocks only while an identical call is in flight.
			Object value = entry.get();
			if (value instanceof Failure failure) {
				throw rethrow(failure.error());
			}
			this.cache.hits.increment();
			this.metrics.count(MiddlewareEvent.CACHE_HIT, invocation.toolName());
			ToolCall.current().decide(CallOutcome.CACHED, NAME);
			return (value != NULL_RESULT) ? value : null;
		}

	}

	/**
	 * Builds a {@link CacheMiddleware}.
	 */
	public static final class Builder {

		private Function<ToolDescriptor, @Nullable CachePolicy> policies = readOnlyTools(CachePolicy.DEFAULT);

		private int order = BuiltInOrder.CACHE;

		private Ticker ticker = Ticker.systemTicker();

		private MiddlewareMetrics metrics = MiddlewareMetrics.NONE;

		private Builder() {
		}

		/**
		 * Caches every read-only tool with this policy, and no other tool (the default, with
		 * {@link CachePolicy#DEFAULT}).
		 * @param policy the policy of every read-only tool
		 * @return this builder
		 */
		public Builder defaultPolicy(CachePolicy policy) {
			this.policies = readOnlyTools(Objects.requireNonNull(policy, "policy"));
			return this;
		}

		/**
		 * Decides per tool, when its pipeline is built, whether and how it is cached. Use it to force caching on for
		 * a tool that is not read-only, or off for one that is.
		 * @param policies gives a tool's policy, or {@code null} for a tool that is not cached
		 * @return this builder
		 */
		public Builder policies(Function<ToolDescriptor, @Nullable CachePolicy> policies) {
			this.policies = Objects.requireNonNull(policies, "policies");
			return this;
		}

		/**
		 * Sets the order (default {@link BuiltInOrder#CACHE}).
		 * @param order the order; lower runs further out
		 * @return this builder
		 */
		public Builder order(int order) {
			this.order = order;
			return this;
		}

		/**
		 * Sets the time source of the time to live (default: {@link Ticker#systemTicker()}); tests pass a fake.
		 * @param ticker the ticker, in nanoseconds
		 * @return this builder
		 */
		public Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return this;
		}

		/**
		 * Sets where hits, misses and evictions are counted (default {@link MiddlewareMetrics#NONE}).
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(MiddlewareMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/**
		 * Builds the middleware; caches are created later, one per tool, as pipelines are built.
		 * @return the middleware
		 */
		public CacheMiddleware build() {
			return new CacheMiddleware(this);
		}

		private static Function<ToolDescriptor, @Nullable CachePolicy> readOnlyTools(CachePolicy policy) {
			return (tool) -> tool.readOnly() ? policy : null;
		}

	}

}
