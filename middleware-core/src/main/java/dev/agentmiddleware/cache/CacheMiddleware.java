package dev.agentmiddleware.cache;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.chain.ArgumentBindingMiddleware;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.jspecify.annotations.Nullable;

/**
 * Answers repeated calls of a tool with the same arguments from a
 * {@link ToolResultCache}, without running the tool again: this class is the per-call
 * side (key, lookup, single flight), the {@link ToolResultCache} the storage (entries,
 * invalidation, statistics). Each tool the policy function gives a {@link CachePolicy}
 * gets its own storage, created when its pipeline is built, with that policy's time to
 * live and size; by default only {@linkplain ToolDescriptor#readOnly() read-only} tools
 * are cached, with {@link CachePolicy#DEFAULT}, except those tagged
 * {@value #UNCACHEABLE_TAG} (a read-only tool whose answer changes between calls with the
 * same arguments, such as a reader of state other tools write). Named {@code cache};
 * default order {@link BuiltInOrder#CACHE}.
 *
 * <p>
 * <b>Key:</b> the canonical JSON of the bound arguments (map entries and object
 * properties sorted by name at every depth, so the order of arguments and of keys does
 * not matter, and two argument objects that serialise alike share an entry even when
 * their class, such as a JavaBean DTO, has no {@code equals}; arguments Jackson cannot
 * serialise compare structurally, by their own {@code equals}) plus the scope value: the
 * session id ({@link CacheScope#SESSION}), the principal ({@link CacheScope#PRINCIPAL})
 * or nothing ({@link CacheScope#GLOBAL}). A call that lacks its scope value (no session
 * id under {@code SESSION}, no principal under {@code PRINCIPAL}) <em>bypasses</em> the
 * cache: it runs the tool and neither reads nor stores a result, so anonymous callers
 * never share results with each other or with anyone else; it counts neither as a hit nor
 * as a miss.
 *
 * <p>
 * <b>Before binding:</b> right inside the argument-binding step (no layer between them
 * applies to the tool), the cache is handed calls unbound
 * ({@link ArgumentBindingMiddleware.AnswersUnbound}). It remembers the
 * {@linkplain UnboundArguments#asSent() arguments as sent} of calls that were bound and
 * then answered from it (so never given to the tool), with what they bound to and their
 * key, up to the policy's size and for its time to live; a later call with equal
 * arguments as sent is looked up by that key without binding, and the layers outside are
 * told of the remembered bound arguments. Entries stay keyed by the bound arguments, so
 * spellings that bind alike share one, and invalidation reaches them all. Arguments that
 * fail to bind are never remembered, and a call whose result is not there yet (a miss, a
 * flight in progress) is bound as by the binding step.
 *
 * <p>
 * <b>Hits and misses:</b> a hit returns the cached value (shared: tools should return
 * immutable values), {@linkplain ToolCall#decide reports} {@link CallOutcome#CACHED} so
 * observers see it, and counts {@link MiddlewareEvent#CACHE_HIT}; a miss runs the tool
 * and counts {@link MiddlewareEvent#CACHE_MISS}; an entry removed by the size limit or
 * the time to live counts {@link MiddlewareEvent#CACHE_EVICTION}. {@code null} results
 * are cached too. Failures are never cached.
 *
 * <p>
 * <b>Single flight:</b> concurrent calls with the same key run the tool once; the others
 * wait for that call's result and count as hits. Calls with other keys are never blocked
 * by it. If the running call fails, every call that was waiting for it fails with the
 * same exception instance (checked or not, unwrapped), and the failure is not kept: the
 * next call runs the tool again. A waiting thread that is interrupted fails with
 * {@link InterruptedException}. A tool must not call itself with the same arguments in
 * the same scope: that call would wait for itself.
 *
 * <p>
 * <b>Invalidation</b> and statistics belong to the storage: inject the
 * {@link ToolResultCache} and call its {@code invalidate} methods, for example after a
 * tool that writes what another one reads. Thread-safe. <pre>{@code
 * CacheMiddleware cache = CacheMiddleware.builder()
 *     .policies(tool -> switch (tool.name()) {
 *         case "search_docs" -> new CachePolicy(Duration.ofHours(1), 10_000, CacheScope.GLOBAL);
 *         case "read_file" -> CachePolicy.DEFAULT;
 *         default -> null;
 *     })
 *     .cache(results)
 *     .build();
 * ToolPipeline pipeline = ToolPipeline.chain(readFileTool, cache);
 * // after writing a file:
 * results.invalidate("read_file", Map.of("path", path));
 * }</pre>
 */
public final class CacheMiddleware extends BuiltInMiddleware<CachePolicy> {

	/** The name of this middleware in printed chains and in observer records. */
	public static final String NAME = "cache";

	/**
	 * The tag of a read-only tool that is not cached unless configured: its answer
	 * changes between calls with the same arguments (it reads state that other tools
	 * write), so a cached answer would be stale.
	 */
	public static final String UNCACHEABLE_TAG = "uncacheable";

	/** Stands for a cached {@code null}: Caffeine keeps no {@code null} values. */
	private static final Object NULL_RESULT = new Object();

	/**
	 * Whether a tool is cached when no configuration says otherwise: read-only and not
	 * tagged {@value #UNCACHEABLE_TAG}.
	 * @param tool the tool
	 * @return {@code true} to cache it with the default policy
	 */
	public static boolean cachedByDefault(ToolDescriptor tool) {
		return tool.readOnly() && !tool.hasTag(UNCACHEABLE_TAG);
	}

	private final ToolResultCache cache;

	private CacheMiddleware(Builder builder) {
		super(NAME, builder);
		this.cache = (builder.cache != null) ? builder.cache : ToolResultCache.create();
	}

	/**
	 * Starts a cache middleware that caches read-only tools with
	 * {@link CachePolicy#DEFAULT}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Creates the cache of a tool its policy function gives a policy (a tool without one
	 * stays out of the chain). Building a pipeline for the same tool again keeps its
	 * cache when the policy is unchanged and replaces it otherwise.
	 * @param tool the tool
	 * @param policy its policy
	 * @param next the rest of the chain
	 * @return the caching handler
	 */
	@Override
	protected ToolHandler wrap(ToolDescriptor tool, CachePolicy policy, ToolHandler next) {
		return new CachingHandler(this.cache.forTool(tool.name(), policy), next);
	}

	@Override
	public String toString() {
		return "CacheMiddleware[order=" + order() + ", cache=" + this.cache + "]";
	}

	/**
	 * The failure of a flight, handed to the calls that waited for it; never kept in the
	 * cache.
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
	 * The per-call side: looks the key up, leads a flight on a miss, or waits for the
	 * flight in progress; answers a repeated call from its arguments as sent, before
	 * binding them, when it is right inside the binding step.
	 */
	private static final class CachingHandler implements ArgumentBindingMiddleware.AnswersUnbound {

		private final ToolResultCache.ToolCache cache;

		private final ConcurrentMap<CacheKey, CompletableFuture<Object>> results;

		private final ToolHandler next;

		private final CacheScope scope;

		CachingHandler(ToolResultCache.ToolCache cache, ToolHandler next) {
			this.cache = cache;
			this.results = cache.results.asMap();
			this.next = next;
			this.scope = cache.policy.scope();
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			return handle(invocation, null);
		}

		@Override
		public @Nullable Object handleUnbound(ToolInvocation invocation, ArgumentBindingMiddleware.Binding binding)
				throws Exception {
			UnboundArguments unbound = invocation.attribute(UnboundArguments.ATTRIBUTE);
			Object asSent = (unbound != null) ? unbound.asSent() : null;
			if (asSent == null) {
				return handle(binding.bind(invocation), null);
			}
			String scopeValue = scopeValue(invocation);
			ToolResultCache.KnownArguments known = this.cache.known.getIfPresent(asSent);
			if (known != null && (scopeValue != null || this.scope == CacheScope.GLOBAL)) {
				// These arguments as sent bound before: their key is known, and a
				// finished result answers at once
				CompletableFuture<Object> entry = this.results.get(known.key().withScope(scopeValue));
				Object value = (entry != null) ? entry.getNow(null) : null;
				if (value != null && !(value instanceof Failure)) {
					binding.boundAs(invocation, known.arguments());
					return hit(value);
				}
			}
			// Bound as by the binding step (an invalid call fails here, as there);
			// remembered once it is a hit
			return handle(binding.bind(invocation), (known == null) ? asSent : null);
		}

		private @Nullable Object handle(ToolInvocation invocation, @Nullable Object asSentToRemember) throws Exception {
			String scopeValue = scopeValue(invocation);
			if (scopeValue == null && this.scope != CacheScope.GLOBAL) {
				return this.next.handle(invocation);
			}
			CacheKey key = CacheKey.of(scopeValue, invocation.arguments());
			CompletableFuture<Object> entry = this.results.get(key);
			if (entry == null) {
				CompletableFuture<Object> flight = new CompletableFuture<>();
				CacheKey stored = key.stored();
				entry = this.results.putIfAbsent(stored, flight);
				if (entry == null) {
					return lead(invocation, stored, flight);
				}
				key = stored;
			}
			Object result = await(entry);
			if (asSentToRemember != null) {
				// A hit: these bound arguments were never given to the tool, so later
				// hits may share them
				this.cache.known.put(CacheKey.copyOfAsSent(asSentToRemember),
						new ToolResultCache.KnownArguments(key.stored(), invocation.arguments()));
			}
			return result;
		}

		private @Nullable String scopeValue(ToolInvocation invocation) {
			return switch (this.scope) {
				case SESSION -> invocation.sessionId();
				case PRINCIPAL -> invocation.principalName();
				case GLOBAL -> null;
			};
		}

		private @Nullable Object lead(ToolInvocation invocation, CacheKey key, CompletableFuture<Object> flight)
				throws Exception {
			this.cache.miss();
			long started = this.cache.flightStarted();
			Object result;
			try {
				result = this.next.handle(invocation);
			}
			catch (Throwable ex) {
				// Remove first, so that a call arriving now starts a new flight instead
				// of seeing this failure. The
				// waiters get the failure as a value: Caffeine logs every future that
				// completes exceptionally.
				this.results.remove(key, flight);
				flight.complete(new Failure(ex));
				throw ex;
			}
			flight.complete((result != null) ? result : NULL_RESULT);
			this.cache.restartIfLong(key, flight, started);
			return result;
		}

		private @Nullable Object await(CompletableFuture<Object> entry) throws Exception {
			// Returns at once on a hit; blocks only while an identical call is in flight.
			Object value = entry.get();
			if (value instanceof Failure failure) {
				throw rethrow(failure.error());
			}
			return hit(value);
		}

		private @Nullable Object hit(Object value) {
			this.cache.hit();
			ToolCall.current().decide(CallOutcome.CACHED, NAME);
			return (value != NULL_RESULT) ? value : null;
		}

	}

	/**
	 * Builds a {@link CacheMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<CachePolicy, Builder> {

		private @Nullable ToolResultCache cache;

		/**
		 * Starts with every read-only tool cached with {@link CachePolicy#DEFAULT}
		 * ({@link #policies policies(fn)} decides per tool, and can force caching on for
		 * a tool that is not read-only or off for one that is) and order
		 * {@link BuiltInOrder#CACHE} ({@link #order order(int)}).
		 */
		private Builder() {
			super(readOnlyTools(CachePolicy.DEFAULT), BuiltInOrder.CACHE);
		}

		/**
		 * Caches every read-only tool with this policy, and no other tool (the default,
		 * with {@link CachePolicy#DEFAULT}).
		 * @param policy the policy of every read-only tool
		 * @return this builder
		 */
		public Builder defaultPolicy(CachePolicy policy) {
			return policies(readOnlyTools(Objects.requireNonNull(policy, "policy")));
		}

		/**
		 * Sets the storage the results go to (default: a {@link ToolResultCache#create()
		 * new one} of this middleware's own). Pass the one the application injects to
		 * invalidate results or read statistics.
		 * @param cache the storage
		 * @return this builder
		 */
		public Builder cache(ToolResultCache cache) {
			this.cache = Objects.requireNonNull(cache, "cache");
			return this;
		}

		/**
		 * Builds the middleware; each tool's storage is created later, as its pipeline is
		 * built.
		 * @return the middleware
		 */
		@Override
		public CacheMiddleware build() {
			return new CacheMiddleware(this);
		}

		private static Function<ToolDescriptor, @Nullable CachePolicy> readOnlyTools(CachePolicy policy) {
			return (tool) -> CacheMiddleware.cachedByDefault(tool) ? policy : null;
		}

	}

}
