/**
 * Counting what the built-in middleware decide (cache hits, rate-limit rejections, retries, approvals), without
 * tying the middleware to a metrics library.
 */
@NullMarked
package dev.agentmiddleware.metrics;

import org.jspecify.annotations.NullMarked;
