/**
 * Auto-configuration of the cache built-in: properties under
 * {@code agent.middleware.cache}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.cache;

import org.jspecify.annotations.NullMarked;
