package dev.agentmiddleware.cache;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import org.jspecify.annotations.Nullable;

/**
 * The storage of cached tool results: one Caffeine cache per tool, with its entries,
 * invalidation and statistics. The {@link CacheMiddleware} looks calls up in it;
 * applications inject it to drop results that a write made stale, and to read its
 * statistics. A tool's cache is created when the first pipeline of the tool is built with
 * a cache middleware that caches it, with that middleware's {@link CachePolicy} (time to
 * live and size); building again with the same policy keeps the entries, with another
 * policy replaces them.
 *
 * <p>
 * An entry removed by the size limit or the time to live counts as an eviction
 * ({@link MiddlewareEvent#CACHE_EVICTION}); invalidation does not. An identical call
 * still in flight when its entry is invalidated returns its result to its callers but
 * does not store it. Thread-safe.
 *
 * <p>
 * <b>Several instances:</b> entries stay in each instance's memory; only invalidations
 * travel. Every {@code invalidate} call is told to the {@link Builder#onInvalidation
 * invalidation listener} as a {@link CacheInvalidation}, which a broadcaster sends to the
 * other instances; they {@link #apply apply} it. <pre>{@code
 * ToolResultCache results = ToolResultCache.builder().metrics(metrics).build();
 * CacheMiddleware cache = CacheMiddleware.builder().cache(results).build();
 * ToolPipeline pipeline = ToolPipeline.chain(readFileTool, cache);
 * // after writing a file:
 * results.invalidate("read_file", Map.of("path", path));
 * double hitRate = results.statistics().get("read_file").hitRate();
 * }</pre>
 */
public final class ToolResultCache {

	private final Ticker ticker;

	private final MiddlewareMetrics metrics;

	private final ConcurrentMap<String, ToolCache> caches = new ConcurrentHashMap<>();

	private final Consumer<CacheInvalidation> onInvalidation;

	private ToolResultCache(Builder builder) {
		this.ticker = builder.ticker;
		this.metrics = builder.metrics;
		this.onInvalidation = builder.onInvalidation;
	}

	/**
	 * Creates an empty cache with the system ticker that counts nothing.
	 * @return the cache
	 */
	public static ToolResultCache create() {
		return builder().build();
	}

	/**
	 * Starts a cache.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The cache of a tool under a policy: the existing one when its policy is the same,
	 * else a new one.
	 */
	ToolCache forTool(String toolName, CachePolicy policy) {
		return this.caches.compute(toolName, (name, existing) -> (existing != null && existing.policy.equals(policy))
				? existing : new ToolCache(name, policy, this.ticker, this.metrics));
	}

	/**
	 * Removes every cached result of a tool, in every scope.
	 * @param toolName the tool; a tool without a cache is ignored
	 */
	public void invalidate(String toolName) {
		apply(CacheInvalidation.tool(toolName));
		this.onInvalidation.accept(CacheInvalidation.tool(toolName));
	}

	/**
	 * Removes a tool's cached results for exactly these arguments, in every scope.
	 * Arguments compare structurally, as in the key; all of the tool's arguments must be
	 * given. <pre>{@code
	 * results.invalidate("read_file", Map.of("path", "/tmp/notes.txt"));
	 * }</pre>
	 * @param toolName the tool; a tool without a cache is ignored
	 * @param arguments the arguments by parameter name
	 */
	public void invalidate(String toolName, Map<String, ?> arguments) {
		ArgumentsFingerprint fingerprint = ArgumentsFingerprint.ofSerializable(arguments);
		Map<String, @Nullable Object> canonical = CacheKey.canonicalArguments(arguments);
		ToolCache cache = this.caches.get(Objects.requireNonNull(toolName, "toolName"));
		if (cache != null) {
			cache.results.asMap().keySet().removeIf((key) -> key.hasArguments(fingerprint, canonical));
		}
		this.onInvalidation.accept((fingerprint != null) ? CacheInvalidation.arguments(toolName, fingerprint.sha256())
				: CacheInvalidation.tool(toolName));
	}

	/**
	 * Removes a tool's cached results whose arguments match, in every scope. <pre>{@code
	 * results.invalidate("read_file", (arguments) -> path.equals(arguments.get("path")));
	 * }</pre> A predicate cannot travel: the {@link Builder#onInvalidation invalidation
	 * listener} is told of the whole tool, so other instances drop all of the tool's
	 * entries.
	 * @param toolName the tool; a tool without a cache is ignored
	 * @param argumentsMatch tests the arguments of an entry (unmodifiable, in structural
	 * form: arrays and other collections appear as lists, sets and maps)
	 */
	public void invalidate(String toolName, Predicate<? super Map<String, @Nullable Object>> argumentsMatch) {
		Objects.requireNonNull(argumentsMatch, "argumentsMatch");
		ToolCache cache = this.caches.get(Objects.requireNonNull(toolName, "toolName"));
		if (cache != null) {
			cache.results.asMap().keySet().removeIf((key) -> argumentsMatch.test(key.arguments()));
		}
		this.onInvalidation.accept(CacheInvalidation.tool(toolName));
	}

	/**
	 * Removes every cached result of every tool.
	 */
	public void invalidateAll() {
		apply(CacheInvalidation.allTools());
		this.onInvalidation.accept(CacheInvalidation.allTools());
	}

	/**
	 * Applies an invalidation made on another instance to this cache, without passing it
	 * to the {@link Builder#onInvalidation invalidation listener} (so it does not travel
	 * back). <pre>{@code
	 * results.apply(CacheInvalidation.tool("read_file"));
	 * }</pre>
	 * @param invalidation the invalidation; a tool without a cache is ignored
	 */
	public void apply(CacheInvalidation invalidation) {
		String toolName = invalidation.toolName();
		if (toolName == null) {
			for (ToolCache cache : this.caches.values()) {
				cache.results.invalidateAll();
			}
			return;
		}
		ToolCache cache = this.caches.get(toolName);
		if (cache == null) {
			return;
		}
		String hash = invalidation.argumentsHash();
		if (hash == null) {
			cache.results.invalidateAll();
		}
		else {
			cache.results.asMap().keySet().removeIf((key) -> key.hasArgumentsHash(hash));
		}
	}

	/**
	 * The statistics of each cached tool, after pending expirations and evictions have
	 * been carried out.
	 * @return an unmodifiable map from tool name to its statistics, in no particular
	 * order
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
		return "ToolResultCache[tools=" + this.caches.keySet() + "]";
	}

	/**
	 * One tool's entries and counters.
	 */
	static final class ToolCache {

		final CachePolicy policy;

		// The flights by key: a future of the result, put when the call that computes it
		// starts (so identical calls wait for it) and completed with the result (never
		// exceptionally). Its time to live runs from the put; a flight longer than
		// restartNanos puts it again when it lands (restartIfLong), so the time to live
		// is counted from the result, give or take a hundredth. A cache of futures
		// instead
		// of Caffeine's AsyncCache, whose every completion rewrites its entry: under load
		// that rewrite was about half the cost of a miss.
		final Cache<CacheKey, CompletableFuture<Object>> results;

		private final Ticker ticker;

		private final long restartNanos;

		// The arguments as sent of calls that were bound and then answered from this
		// cache (so never given to the
		// tool), with what they bound to and their key: a repeated call is answered
		// without binding it again.
		final Cache<Object, KnownArguments> known;

		final LongAdder hits = new LongAdder();

		final LongAdder misses = new LongAdder();

		final LongAdder evictions = new LongAdder();

		private final String toolName;

		private final MiddlewareMetrics metrics;

		ToolCache(String toolName, CachePolicy policy, Ticker ticker, MiddlewareMetrics metrics) {
			this.toolName = toolName;
			this.metrics = metrics;
			this.policy = policy;
			this.ticker = ticker;
			this.restartNanos = policy.ttl().toNanos() / 100;
			this.results = Caffeine.newBuilder()
				.expireAfterWrite(policy.ttl())
				.maximumSize(policy.maxSize())
				.ticker(ticker)
				// Maintenance (and so the eviction listener) runs on the calling thread:
				// no pool hops, and
				// deterministic statistics.
				.executor(Runnable::run)
				.<CacheKey, CompletableFuture<Object>>evictionListener((key, value, cause) -> {
					if (cause.wasEvicted()) {
						this.evictions.increment();
						metrics.count(MiddlewareEvent.CACHE_EVICTION, toolName);
					}
				})
				.build();
			this.known = Caffeine.newBuilder()
				.expireAfterWrite(policy.ttl())
				.maximumSize(policy.maxSize())
				.ticker(ticker)
				.executor(Runnable::run)
				.build();
		}

		/**
		 * The start of a flight, for {@link #restartIfLong}.
		 * @return the ticker's reading
		 */
		long flightStarted() {
			return this.ticker.read();
		}

		/**
		 * Restarts the time to live of a flight's entry (if it is still the entry of its
		 * key) when the flight took longer than a hundredth of it.
		 * @param key the key
		 * @param flight the flight, completed
		 * @param started when it started ({@link #flightStarted})
		 */
		void restartIfLong(CacheKey key, CompletableFuture<Object> flight, long started) {
			if (this.ticker.read() - started > this.restartNanos) {
				this.results.asMap().replace(key, flight, flight);
			}
		}

		void hit() {
			this.hits.increment();
			this.metrics.count(MiddlewareEvent.CACHE_HIT, this.toolName);
		}

		void miss() {
			this.misses.increment();
			this.metrics.count(MiddlewareEvent.CACHE_MISS, this.toolName);
		}

		CacheStatistics statistics() {
			this.results.cleanUp();
			return new CacheStatistics(this.hits.sum(), this.misses.sum(), this.evictions.sum(),
					this.results.estimatedSize());
		}

	}

	/**
	 * What a tool's arguments as sent bound to, and the key of their results (in the
	 * scope of the call that bound them).
	 */
	record KnownArguments(CacheKey key, Map<String, @Nullable Object> arguments) {
	}

	/**
	 * Builds a {@link ToolResultCache}.
	 */
	public static final class Builder {

		private Ticker ticker = Ticker.systemTicker();

		private MiddlewareMetrics metrics = MiddlewareMetrics.NONE;

		private Consumer<CacheInvalidation> onInvalidation = (invalidation) -> {
		};

		private Builder() {
		}

		/**
		 * Sets what is told of every invalidation made through this cache's
		 * {@code invalidate} methods, after the local entries are removed (default
		 * nothing); a cluster passes a broadcaster that sends it to the other instances,
		 * which {@link ToolResultCache#apply apply} it. An invalidation by predicate is
		 * told as its whole tool; one by arguments whose JSON form cannot be computed,
		 * too.
		 * @param onInvalidation the listener; it must not throw
		 * @return this builder
		 */
		public Builder onInvalidation(Consumer<CacheInvalidation> onInvalidation) {
			this.onInvalidation = Objects.requireNonNull(onInvalidation, "onInvalidation");
			return this;
		}

		/**
		 * Sets the time source of the time to live (default:
		 * {@link Ticker#systemTicker()}); tests pass a fake.
		 * @param ticker the ticker, in nanoseconds
		 * @return this builder
		 */
		public Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return this;
		}

		/**
		 * Sets where hits, misses and evictions are counted (default
		 * {@link MiddlewareMetrics#NONE}).
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(MiddlewareMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/**
		 * Builds the cache; each tool's storage is created later, as pipelines are built.
		 * @return the cache
		 */
		public ToolResultCache build() {
			return new ToolResultCache(this);
		}

	}

	/**
	 * What one tool's cache has done since it was created. <pre>{@code
	 * CacheStatistics weather = cache.statistics().get("get_weather");
	 * double hitRate = weather.hitRate();
	 * }</pre>
	 *
	 * @param hits calls answered from the cache, including calls that waited for an
	 * identical call in flight
	 * @param misses calls that ran the tool
	 * @param evictions entries removed because of the size limit or the time to live (not
	 * by invalidation)
	 * @param size entries currently held
	 */
	public record CacheStatistics(long hits, long misses, long evictions, long size) {

		/**
		 * The share of calls answered from the cache.
		 * @return hits divided by hits plus misses, {@code 0} before the first call
		 */
		public double hitRate() {
			long requests = this.hits + this.misses;
			return (requests == 0) ? 0 : (double) this.hits / requests;
		}

	}

}
