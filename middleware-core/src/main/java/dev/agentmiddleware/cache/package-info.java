/**
 * Caching of tool results, split as OkHttp splits {@code Cache} from
 * {@code CacheInterceptor}: the {@link dev.agentmiddleware.cache.ToolResultCache} stores
 * results (one Caffeine cache per tool, invalidation, statistics) and is what
 * applications inject; the {@link dev.agentmiddleware.cache.CacheMiddleware} answers
 * repeated calls of read-only tools from it, per call, scoped to the session, the
 * principal or nobody, running concurrent identical calls once.
 */
@NullMarked
package dev.agentmiddleware.cache;

import org.jspecify.annotations.NullMarked;
