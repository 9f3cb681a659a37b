/**
 * Caching of tool results: {@link dev.agentmiddleware.cache.CacheMiddleware} answers repeated calls of read-only
 * tools from a Caffeine cache per tool, scoped to the session, the principal or nobody.
 */
@NullMarked
package dev.agentmiddleware.cache;

import org.jspecify.annotations.NullMarked;
