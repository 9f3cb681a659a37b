/**
 * A simulated weather tool: deterministic, read-only and a little slow, like a remote
 * service.
 */
@NullMarked
package dev.agentmiddleware.sample.weather;

import org.jspecify.annotations.NullMarked;
